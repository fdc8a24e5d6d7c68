// The upload queue in Chromium against the real server on loopback, as a creator uses it (the app's /upload
// screen, its tus queue, the device copy): throughput of tus against one multipart POST of the same file from
// the same page; then, on a throttled uplink cut at half (offline, and a reload as in the e2e scenario), the
// bytes sent twice and the time from reconnecting to the upload going again. Each video is left to finish
// processing before the next figure, so a transcode never competes with a measurement.
import fs from 'node:fs/promises';
import { chromium, devices, type Page, type Request } from 'playwright';
import { CHUNK_SIZE } from '../../src/offline/uploads/transfer';
import { confirmAgeOnce } from '../e2e/age-gate';
import { chromiumLaunchOptions } from '../e2e/browser';
import { startServer } from '../e2e/server';
import { signIn } from '../e2e/sign-in';
import { bigClip, chooseVideo, ownVideo, uploadRecords } from '../e2e/upload-helpers';

const CREATOR = 'luna.vega@demo.test';
/** The uplink of the cut scenario: a good phone connection, slow enough to cut the clip in the middle. */
const UPLINK = 3 * 1024 * 1024;

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const rate = (bytes: number, ms: number) => `${((bytes / 2 ** 20) * (1000 / ms)).toFixed(1)} MiB/s`;

const isUpload = (r: Request) => new URL(r.url()).pathname.startsWith('/v1/uploads');

/** Polls until `check` holds, or throws after `ms`: a bench must say it is stuck, not hang. */
async function until(what: string, check: () => Promise<boolean>, ms = 300_000, every = 100) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`upload bench: ${what} not reached within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, every));
  }
}

export async function uploadBench(): Promise<Record<string, string>> {
  const file = await bigClip();
  const size = (await fs.stat(file)).size;
  const server = await startServer({ env: { DEMO_VIDEOS: '2' }, timeoutMs: 300_000 });
  const storageState = await confirmAgeOnce(server.url);
  const browser = await chromium.launch(chromiumLaunchOptions());
  const out: Record<string, string> = {};
  try {
    const newPage = async () => {
      const context = await browser.newContext({ ...devices['Pixel 7'], storageState, baseURL: server.url });
      // tsx keeps function names with a `__name` helper that only exists in Node (see player.bench.ts).
      await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn);');
      const member = await signIn(context.request, CREATOR);
      await context.addInitScript((value) => localStorage.setItem('shortcams.auth', value), member.auth);
      const page = await context.newPage();
      await page.goto('/upload');
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      return { context, page, member };
    };
    /** The queue's one upload here has its video id, and that video is done processing. */
    const settled = async (page: Page, member: Awaited<ReturnType<typeof signIn>>) => {
      let videoId = 0;
      await until('the last byte', async () => {
        videoId = (await uploadRecords(page))[0]?.videoId ?? 0;
        return videoId > 0;
      });
      await until(
        'the end of processing',
        async () => {
          const status = (await ownVideo(page.context().request, member, videoId))?.status;
          return status === 'approved' || status === 'error';
        },
        600_000,
        1000,
      );
    };

    out['file'] = `${mib(size)} (10 s 360x640 H.264 at 24 Mbit/s), tus chunks of ${mib(CHUNK_SIZE)}`;

    // 1. tus through the queue, unthrottled: from the creating POST to the answer of the last PATCH (the
    // device copy made before is timed apart: it is the queue's, not the wire's).
    {
      const { context, page, member } = await newPage();
      let chosenAt = 0;
      let postAt = 0;
      let lastAt = 0;
      page.on('request', (r) => {
        if (isUpload(r) && r.method() === 'POST' && !postAt) postAt = performance.now();
      });
      page.on('requestfinished', async (r) => {
        if (!isUpload(r) || r.method() !== 'PATCH') return;
        const at = performance.now();
        if ((await r.response())?.headers()['video-id']) lastAt = at;
      });
      chosenAt = performance.now();
      await chooseVideo(page, file);
      await until('the last PATCH', async () => lastAt > 0, 300_000, 20);
      const tusMs = lastAt - postAt;
      out['tus in Chromium (the app queue, loopback)'] =
        `${rate(size, tusMs)} (${(tusMs / 1000).toFixed(2)} s from creation to the last answer; ` +
        `device copy before it ${((postAt - chosenAt) / 1000).toFixed(2)} s)`;
      await settled(page, member);

      // 2. The same file in one multipart POST, from the same page, timed inside it.
      const picker = await page.evaluateHandle(() => {
        const input = document.createElement('input');
        input.type = 'file';
        document.body.append(input);
        return input;
      });
      await picker.asElement()?.setInputFiles(file);
      const answer = await page.evaluate(
        async ({ input, token }) => {
          const chosen = (input as HTMLInputElement).files?.[0];
          if (!chosen) throw new Error('no file');
          const form = new FormData();
          form.append('video', chosen);
          const t0 = performance.now();
          const res = await fetch('/v1/videos/upload', {
            method: 'POST',
            body: form,
            headers: { Authorization: `Bearer ${token}` },
          });
          const ms = performance.now() - t0;
          return {
            ms,
            status: res.status,
            videoId: ((await res.json()) as { videoId?: number }).videoId ?? 0,
          };
        },
        { input: picker, token: JSON.parse(member.auth).accessToken as string },
      );
      if (answer.status !== 201) throw new Error(`multipart upload answered ${answer.status}`);
      out['one multipart POST in Chromium (loopback)'] =
        `${rate(size, answer.ms)} (${(answer.ms / 1000).toFixed(2)} s)`;
      out['tus / multipart throughput'] = `${(answer.ms / tusMs).toFixed(2)}`;
      await until(
        'the end of processing (multipart)',
        async () => {
          const status = (await ownVideo(page.context().request, member, answer.videoId))?.status;
          return status === 'approved' || status === 'error';
        },
        600_000,
        1000,
      );
      await context.close();
    }

    // 3. A cut at half on a throttled uplink: offline, reload offline, reconnect.
    {
      const { context, page, member } = await newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      const conditions = (offline: boolean, uploadThroughput: number) =>
        cdp.send('Network.emulateNetworkConditions', {
          offline,
          latency: 40,
          downloadThroughput: -1,
          uploadThroughput,
        });
      await conditions(false, UPLINK);
      // Each PATCH carries the file from its Upload-Offset, one chunk at most (its Content-Length is not
      // always readable once a reload has ended the request).
      const patchOffsets: number[] = [];
      let reconnectAt = 0;
      let headAfter = 0;
      let patchAfter = 0;
      let serverOffset = -1;
      page.on('request', (r) => {
        if (!isUpload(r)) return;
        if (r.method() === 'PATCH') patchOffsets.push(Number(r.headers()['upload-offset']));
        if (reconnectAt && r.method() === 'HEAD' && !headAfter) headAfter = performance.now();
        if (reconnectAt && r.method() === 'PATCH' && !patchAfter) patchAfter = performance.now();
      });
      page.on('response', (res) => {
        if (reconnectAt && isUpload(res.request()) && res.request().method() === 'HEAD' && serverOffset < 0)
          serverOffset = Number(res.headers()['upload-offset'] ?? -1);
      });
      await chooseVideo(page, file);
      const line = page.getByRole('article').getByText(/^\d+% · /);
      await until('half the bytes', async () => {
        const text = await line.textContent({ timeout: 500 }).catch(() => null);
        return Number(/^(\d+)%/.exec(text ?? '')?.[1] ?? 0) >= 50;
      });
      // DevTools' offline lets a request already sending finish; the reload ends it, as a lost network would.
      await context.setOffline(true);
      await conditions(true, UPLINK);
      const confirmed = (await uploadRecords(page))[0]?.offset ?? 0;
      await page.reload();
      await page.getByText(/^Waiting for the network · \d+%$/).waitFor();
      await conditions(false, -1);
      reconnectAt = performance.now();
      await context.setOffline(false);
      await settled(page, member);
      const sent = patchOffsets.reduce((sum, o) => sum + Math.min(CHUNK_SIZE, size - o), 0);
      // What the cut PATCH carried beyond what the server kept went out again from the server's offset.
      out['cut at half on a 3 MiB/s uplink, reload offline: bytes re-sent (at most)'] =
        `${mib(sent - size)} (PATCH bodies ${mib(sent)} for ${mib(size)}; the bound is one chunk, ${mib(CHUNK_SIZE)})`;
      out['offset after the cut'] =
        `${mib(serverOffset)} on the server (HEAD) vs ${mib(confirmed)} in the last confirmed chunk: ` +
        `${mib(serverOffset - confirmed)} of the cut PATCH kept`;
      out['reconnect to the upload going again'] =
        `${(patchAfter - reconnectAt).toFixed(0)} ms to the first PATCH (${(headAfter - reconnectAt).toFixed(0)} ms to the HEAD asking the offset)`;
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  return out;
}
