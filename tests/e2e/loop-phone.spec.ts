// A clip loops on the start it already has (issue 35, from the network bench): hls.js let a looping video's
// lower-rendition start go once the player climbed, and every loop then waited on the network for it (0.3 to
// 2 s frozen on bad 4G). Phone project only: the wide layout plays the same way.
import { expect, test } from 'playwright/test';
import { current } from './ads';
import { closeRatingPrompt } from './rating-prompt';

test('a clip that climbed to its higher rendition loops without fetching its start again', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const segments: { path: string; at: number }[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.endsWith('.ts')) segments.push({ path, at: Date.now() });
  });
  await page.goto('/');
  await expect(current(page).locator('video')).toBeVisible();
  // The second video plays through hls.js (the tunnel buffer is on), whose rendition the app chooses.
  await page.keyboard.press('ArrowDown');
  await expect(current(page)).toHaveAttribute('aria-posinset', '2');
  await closeRatingPrompt(page);
  const video = current(page).locator('video');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.src.startsWith('blob:'))).toBe(true);

  // Played past its end: the clock went back to the start and on again.
  let last = 0;
  let loopedAt = 0;
  await expect
    .poll(
      async () => {
        const t = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
        if (t + 1 < last && loopedAt === 0) loopedAt = Date.now();
        last = t;
        return loopedAt > 0 && t > 1;
      },
      { timeout: 40_000, intervals: [100] },
    )
    .toBe(true);

  const title = await current(page).getAttribute('aria-label');
  const feed = (await (await request.get('/v1/videos')).json()).data as {
    title: string;
    playlistUrl: string;
  }[];
  const folder = feed.find((v) => v.title === title)?.playlistUrl.replace(/master\.m3u8$/, '');
  expect(folder).toMatch(/^\/media\/videos\/.+\/$/);
  const mine = segments.filter((s) => s.path.startsWith(folder ?? '-'));
  // It climbed: a segment of a higher rendition than the lowest was fetched.
  const renditions = new Set(mine.map((s) => s.path.split('/').at(-2)));
  expect(renditions.size).toBeGreaterThan(1);
  // And at the loop nothing of its start crossed the network again at a higher rendition (the lowest one's
  // files may be fetched any time by the tunnel buffer, which keeps them).
  const lowest = [...renditions].sort(
    (a, b) => Number.parseInt(a ?? '', 10) - Number.parseInt(b ?? '', 10),
  )[0];
  const atLoop = mine.filter(
    (s) => s.at >= loopedAt - 1000 && /seg_000\.ts$/.test(s.path) && !s.path.includes(`/${lowest}/`),
  );
  expect(atLoop).toEqual([]);
});
