import { expect, type Page, test } from 'playwright/test';

// The feed with a keyboard (issue 33): a "Skip to video" link first, then the video's own controls before
// the sidebars; Space or K plays and pauses, M mutes, L likes, the arrows move and seek, "?" lists them all,
// and none of them fires while the viewer types. Wide project, at a 1280 px laptop.
test.use({ viewport: { width: 1280, height: 800 } });

const current = (page: Page) => page.locator('[role=feed] article[aria-hidden=false]');
const video = (page: Page) => current(page).locator('video');
const paused = (page: Page) => video(page).evaluate((el: HTMLVideoElement) => el.paused);
const time = (page: Page) => video(page).evaluate((el: HTMLVideoElement) => el.currentTime);
/** Whether the keyboard's focus is on the Like button of the video on screen. */
const onLike = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('data-shortcut') === 'like');

test('Tab reaches the video and its Like within a few presses, past a Skip to video link', async ({
  page,
}) => {
  await page.goto('/');
  await expect(video(page)).toBeVisible();
  // Sidebars are on screen: their 20 thumbnails must not come first.
  await expect(
    page.getByRole('complementary', { name: 'Recommended videos' }).getByRole('link').first(),
  ).toBeVisible();

  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Skip to video' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(current(page)).toBeFocused();
  let presses = 0;
  while (presses < 12 && !(await onLike(page))) {
    await page.keyboard.press('Tab');
    presses++;
  }
  expect(await onLike(page)).toBe(true);
  // Creator, title chips and seek bar come first: about 7, where it used to be 45.
  expect(presses).toBeLessThanOrEqual(10);
  // Focus stays in the video on screen while it walks its controls.
  expect(await current(page).evaluate((el) => el.contains(document.activeElement))).toBe(true);
});

test('Space and K play and pause, M mutes, L likes, arrows move and seek, ? lists them', async ({ page }) => {
  await page.goto('/');
  await expect(video(page)).toBeVisible();
  await expect.poll(() => paused(page)).toBe(false);
  await page.getByRole('button', { name: 'Got it' }).click();

  await page.keyboard.press('k');
  await expect.poll(() => paused(page)).toBe(true);
  await page.keyboard.press('k');
  await expect.poll(() => paused(page)).toBe(false);
  // Space on a focused button is the button's own (the coach hint's next "Got it" has the focus now).
  await expect(page.locator(':focus')).toHaveAccessibleName('Got it');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Space');
  await expect.poll(() => paused(page)).toBe(true);
  await page.keyboard.press('Space');
  await expect.poll(() => paused(page)).toBe(false);

  await expect(current(page).getByRole('button', { name: 'Unmute' })).toBeVisible();
  await page.keyboard.press('m');
  await expect(current(page).getByRole('button', { name: 'Mute' })).toBeVisible();
  await page.keyboard.press('m');
  await expect(current(page).getByRole('button', { name: 'Unmute' })).toBeVisible();

  const like = current(page).locator('[data-shortcut=like]');
  const liked = await like.getAttribute('aria-pressed');
  await page.keyboard.press('l');
  await expect(like).toHaveAttribute('aria-pressed', liked === 'true' ? 'false' : 'true');
  await page.keyboard.press('l');
  await expect(like).toHaveAttribute('aria-pressed', liked ?? 'false');

  // Right seeks 5 s on, left 5 s back (the clips loop, so the step is read against where it was).
  await page.keyboard.press('k');
  await expect.poll(() => paused(page)).toBe(true);
  // Settled at 1 s first: the key's step is then read from a known place. The first video on `/` may be a
  // short one (the demo has 5 s clips, the console's spec publishes a 2 s one): the step stops short of
  // its end there, so the target is worked out from the clip's length.
  const duration = await video(page).evaluate(async (el: HTMLVideoElement) => {
    el.currentTime = 1;
    if (el.seeking) await new Promise((done) => el.addEventListener('seeked', done, { once: true }));
    return el.duration;
  });
  const forward = Math.min(1 + 5, duration - 0.1);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => time(page)).toBeCloseTo(forward, 1);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => time(page)).toBeCloseTo(Math.max(forward - 5, 0), 1);

  const first = await current(page).getAttribute('aria-posinset');
  await page.keyboard.press('ArrowDown');
  await expect(current(page)).toHaveAttribute('aria-posinset', String(Number(first) + 1));

  await page.keyboard.press('?');
  const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(sheet).toBeVisible();
  for (const label of ['Play or pause', 'Mute or unmute', 'Like or unlike', 'Next video'])
    await expect(sheet.getByText(label)).toBeVisible();
  // The feed holds still under the sheet: its keys are the sheet's.
  await page.keyboard.press('ArrowDown');
  await expect(current(page)).toHaveAttribute('aria-posinset', String(Number(first) + 1));
  await page.keyboard.press('Escape');
  await expect(sheet).toBeHidden();
  // And the button beside the arrows opens it too, for a mouse.
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(sheet).toBeVisible();
  await sheet.getByRole('button', { name: 'Close' }).click();
  await expect(sheet).toBeHidden();
});

test('no shortcut fires while typing in a field', async ({ page }) => {
  await page.goto('/');
  await expect(video(page)).toBeVisible();
  const like = current(page).locator('[data-shortcut=like]');
  const liked = await like.getAttribute('aria-pressed');
  const position = await current(page).getAttribute('aria-posinset');
  // The preferences sheet's tag search is a field over the feed.
  await current(page).getByRole('button', { name: 'Settings' }).click();
  const field = page
    .getByRole('dialog')
    .getByRole('searchbox')
    .or(page.getByRole('dialog').getByRole('textbox'));
  await field.first().fill('');
  await field.first().pressSequentially('lm k?');
  await expect(field.first()).toHaveValue('lm k?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(like).toHaveAttribute('aria-pressed', liked ?? 'false');
  await expect(current(page)).toHaveAttribute('aria-posinset', position ?? '1');
  await expect(current(page).getByRole('button', { name: 'Unmute' })).toBeVisible();
});
