// Issue 35 acceptance: the feed keeps playing in a tunnel. The app is reached through a TCP relay of this
// test's own, in front of the run's real server: closing the relay's port is the network going away for the
// page AND its service worker (connections refused, as when a server or a Wi-Fi goes), which the browser's
// offline switch does not do for the worker. Reopening it on the same port is the network coming back.
import net from 'node:net';
import { expect, type Page, test } from 'playwright/test';
import { AGE_CONFIRM_BUTTON } from './age-gate';
import { freePort } from './server';

class Relay {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  /** Paths asked for through the relay, i.e. over the network, with how many times. */
  readonly asked = new Map<string, number>();

  constructor(
    readonly port: number,
    private readonly target: URL,
  ) {}

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async open(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(Number(this.target.port), this.target.hostname);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.on('data', (chunk: Buffer) => {
        for (const [, path] of chunk.toString('latin1').matchAll(/^(?:GET|HEAD) (\S+) HTTP\/1\.1\r$/gm))
          if (path)
            this.asked.set(path.split('?')[0] ?? path, (this.asked.get(path.split('?')[0] ?? path) ?? 0) + 1);
      });
      client.pipe(upstream).pipe(client);
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', resolve);
    });
    this.server = server;
  }

  /** The network goes: nothing listens on the port any more, and open connections are cut. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}

const current = (page: Page) => page.locator('[role=feed] article[aria-hidden=false]');

/** The video on screen plays: its clock moves on by itself. */
async function expectPlaying(page: Page) {
  const video = current(page).locator('video');
  const start = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(start + 0.5);
}

/** The app says what is on screen came from the device. */
const expectOfflineMark = (page: Page) =>
  expect(
    page
      .getByRole('status')
      .filter({ hasText: /offline/i })
      .first(),
  ).toBeVisible();

/** A video grid shows its thumbnails. */
const expectGrid = (page: Page) =>
  expect(page.getByRole('list', { name: 'Videos' }).getByRole('listitem').first()).toBeVisible();

const keptCount = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('shortcams-tunnel');
        open.onupgradeneeded = () => open.result.createObjectStore('videos');
        open.onsuccess = () => {
          const count = open.result.transaction('videos').objectStore('videos').count();
          count.onsuccess = () => resolve(count.result);
          count.onerror = () => resolve(0);
        };
        open.onerror = () => resolve(0);
      }),
  );

// The kept videos play from the service worker's caches once the server is gone.
test.use({ serviceWorkers: 'allow' });

test.describe('the tunnel buffer', () => {
  let relay: Relay;

  test.beforeEach(async () => {
    relay = new Relay(await freePort(), new URL(process.env.E2E_BASE_URL ?? ''));
    await relay.open();
  });
  test.afterEach(async () => {
    await relay.close();
  });

  test('watched online, the feed plays kept videos with the server gone, and screens heal when it returns', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    // The prompt opens by itself after a few videos; this test is about something else.
    await page.addLocatorHandler(page.getByRole('dialog', { name: 'Rate this video' }), async () => {
      await page.keyboard.press('Escape');
    });
    const feed = (await (await request.get('/v1/videos')).json()).data as {
      title: string;
      playlistUrl: string;
      user: { slug: string };
      tags: { id: number }[];
    }[];
    const tagId = feed.flatMap((v) => v.tags)[0]?.id;
    expect(tagId).toBeDefined();
    const slugs = [...new Set(feed.map((v) => v.user.slug))];

    await page.goto(`${relay.url}/`);
    await page.getByRole('button', { name: AGE_CONFIRM_BUTTON }).click();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await expectPlaying(page);

    // Watching: the next ten are kept (the feed's first page lists ten, so the list asks for its next page
    // early), and the preferences say so.
    await expect.poll(() => keptCount(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(10);
    await current(page).getByRole('button', { name: 'Settings' }).click();
    const sheet = page.getByRole('dialog', { name: 'Preferences' });
    await expect(sheet.getByRole('group', { name: 'Keep videos for offline' })).toBeVisible();
    await expect(sheet.getByText(/^\d+ videos · [\d.]+ MB$/)).toBeVisible();
    await page.keyboard.press('Escape');

    // The next video plays from the copy kept on the device: none of its files crossed the network twice
    // (its master playlist excepted, which the worker refreshes behind the kept copy).
    await page.keyboard.press('ArrowDown');
    await expectPlaying(page);
    const title = await current(page).getAttribute('aria-label');
    const playlist = feed.find((v) => v.title === title)?.playlistUrl ?? '';
    const folder = playlist.replace(/master\.m3u8$/, '');
    expect(folder).toMatch(/^\/media\/videos\/.+\/$/);
    await page.waitForTimeout(2000);
    const crossings = [...relay.asked].filter(
      ([path]) => path.startsWith(folder) && !path.endsWith('/master.m3u8'),
    );
    expect(crossings.some(([path]) => path.endsWith('.ts'))).toBe(true);
    expect(crossings.filter(([, times]) => times > 1)).toEqual([]);

    // A tag grid seen online.
    await page.goto(`${relay.url}/tag/${tagId}`);
    await expectGrid(page);
    await page.goto(`${relay.url}/`);
    await expectPlaying(page);

    await relay.close();
    await page.reload();
    // The kept videos play, swipe after swipe, with no error screen.
    await expectPlaying(page);
    await expectOfflineMark(page);
    const titles = new Set<string>();
    titles.add((await current(page).getAttribute('aria-label')) ?? '');
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press('ArrowDown');
      await expectPlaying(page);
      titles.add((await current(page).getAttribute('aria-label')) ?? '');
    }
    expect(titles.size).toBeGreaterThanOrEqual(6);
    await expect(page.getByText("Couldn't load videos")).toHaveCount(0);

    // The tag grid seen before shows from the device, marked offline.
    await page.goto(`${relay.url}/tag/${tagId}`);
    await expectGrid(page);
    await expectOfflineMark(page);

    // A profile never opened fails (spec: the not-found screen)... and loads by itself once the server is
    // back: no tap.
    const unseen = slugs.at(-1) ?? '';
    await page.goto(`${relay.url}/${unseen}`);
    await expect(page.locator('h1.not-found-title')).toBeVisible({ timeout: 20_000 });
    await relay.open();
    await expect(page.locator('h1.profile-name')).toBeVisible({ timeout: 10_000 });
  });
});
