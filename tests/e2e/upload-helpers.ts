// What the upload specs share: generated media (made once per run by the server's own ffmpeg), choosing a file
// the way a person does (the button opens the file chooser), counting what goes over the wire, and asking
// the API what became of a video.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { APIRequestContext, BrowserContext, Page, Request } from 'playwright/test';
import { expect } from 'playwright/test';
import { ffmpeg } from '../../server/media/ffmpeg';
import { makeLongClip } from '../api/media-fixtures';

let dir: Promise<string> | undefined;
const mediaDir = () => {
  dir ??= fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-upload-e2e-'));
  return dir;
};

const made = new Map<string, Promise<string>>();
function once(name: string, make: (file: string) => Promise<void>): Promise<string> {
  let file = made.get(name);
  if (!file) {
    file = mediaDir().then(async (d) => {
      const target = path.join(d, name);
      await make(target);
      return target;
    });
    made.set(name, file);
  }
  return file;
}

/**
 * The page's network through DevTools: `set(offline, uploadThroughput)` gives it a phone's slow uplink, or no
 * network at all. Once a page has its own conditions Chromium follows them and no longer Playwright's
 * `setOffline`.
 */
export async function emulateNetwork(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  return (offline: boolean, uploadThroughput: number) =>
    cdp.send('Network.emulateNetworkConditions', {
      offline,
      latency: 40,
      downloadThroughput: -1,
      uploadThroughput,
    });
}

/**
 * A 10 s vertical clip of about 30 MB (20 to 40 MB, as the acceptance asks): constant 24 Mbit/s, about what
 * a phone records, so it is big enough to cut mid-way yet fast to make and to transcode (360x640).
 */
export const bigClip = () =>
  once('phone-clip.mp4', async (file) => {
    await ffmpeg(
      [
        ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=360x640:rate=24'],
        ...['-f', 'lavfi', '-i', 'sine=frequency=330:sample_rate=44100', '-t', '10'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '24M', '-minrate', '24M', '-maxrate', '24M'],
        ...['-bufsize', '12M', '-x264-params', 'nal-hrd=cbr', '-pix_fmt', 'yuv420p'],
        ...['-c:a', 'aac', '-b:a', '64k', '-movflags', '+faststart', file],
      ],
      { timeoutMs: 120_000 },
    );
  });

/** A small clip for the screens' own tests. */
export const smallClip = () =>
  once('small.mp4', async (file) => {
    await ffmpeg(
      [
        ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=270x480:rate=24'],
        ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100', '-t', '3'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', file],
      ],
      { timeoutMs: 60_000 },
    );
  });

/** 31 minutes of a 16x16 picture at one frame a second: a valid video, only too long. */
export const longClip = () =>
  once('long.mp4', async (file) => {
    const made31 = await makeLongClip(path.dirname(file), 31);
    await fs.rename(made31, file);
  });

/** A text file named like a video. */
export const textAsVideo = () =>
  once('notes.mp4', (file) =>
    fs.writeFile(file, 'Shopping list: milk, eggs, a new phone charger.\n'.repeat(200)),
  );

/** Chooses a file the way a person does: the 'Choose a video' button opens the file chooser. */
export async function chooseVideo(page: Page, file: string) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose a video' }).click();
  await (await chooser).setFiles(file);
}

/** Requests to the tus endpoint, with the body bytes of each PATCH (its Content-Length). */
export function watchUploads(target: Page | BrowserContext) {
  const seen: { method: string; url: string; bytes: Promise<number>; fromServiceWorker: Promise<boolean> }[] =
    [];
  const onRequest = (request: Request) => {
    if (!new URL(request.url()).pathname.startsWith('/v1/uploads')) return;
    seen.push({
      method: request.method(),
      url: request.url(),
      bytes:
        request.method() === 'PATCH'
          ? request.allHeaders().then((h) => Number(h['content-length'] ?? 0))
          : Promise.resolve(0),
      fromServiceWorker: request.response().then(
        (r) => r?.fromServiceWorker() ?? false,
        () => false,
      ),
    });
  };
  target.on('request', onRequest);
  return {
    seen,
    count: () => seen.length,
    patchBytes: async () =>
      (await Promise.all(seen.filter((r) => r.method === 'PATCH').map((r) => r.bytes))).reduce(
        (a, b) => a + b,
        0,
      ),
    stop: () => target.off('request', onRequest),
  };
}

export interface OwnVideo {
  id: number;
  title: string;
  status: string;
  tags: { name: string }[];
  playlistUrl: string | null;
  statusReason?: string | null;
  /** Playable and waiting for an operator (UPLOAD_REVIEW=before). */
  inReview?: boolean;
}

/** The owner's view of one of their videos (every status), from GET /v1/users/{id}/videos. */
export async function ownVideo(
  request: APIRequestContext,
  member: { id: number; bearer: Record<string, string> },
  videoId: number,
): Promise<OwnVideo | undefined> {
  const res = await request.get(`/v1/users/${member.id}/videos`, { headers: member.bearer });
  expect(res.ok()).toBe(true);
  const list = (await res.json()) as { data: OwnVideo[] };
  return list.data.find((v) => v.id === videoId);
}

/** The local record of the upload on this device: its video id, once known. */
export async function uploadRecords(page: Page) {
  return page.evaluate(
    () =>
      new Promise<{ id: string; state: string; videoId: number | null; offset: number; size: number }[]>(
        (resolve, reject) => {
          const open = indexedDB.open('shortcams-uploads');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            if (!open.result.objectStoreNames.contains('uploads')) return resolve([]);
            const all = open.result.transaction('uploads').objectStore('uploads').getAll();
            all.onsuccess = () => resolve(all.result);
            all.onerror = () => reject(all.error);
          };
        },
      ),
  );
}

/** Whether the video element on screen in the feed plays. */
export async function expectFeedPlays(page: Page) {
  const video = page.locator('[role=feed] article[aria-hidden=false] video');
  await expect(video).toBeVisible();
  await expect
    .poll(() => video.evaluate((el: HTMLVideoElement) => !el.paused && el.currentTime > 0.2), {
      timeout: 30_000,
    })
    .toBe(true);
}
