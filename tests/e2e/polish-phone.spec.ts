import { expect, type Locator, type Page, test } from 'playwright/test';
import { readKv } from './device';
import { toastsSeen, watchToasts } from './members';
import { signedIn } from './sign-in';

// The rough edges a picky viewer found on a 390 px phone (issue 33), each measured the way it looked wrong:
// text cut or wrapped, a badge squeezed, targets under 44 px, glyphs where the other sheets draw icons.

test.use({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });

const current = (page: Page) => page.locator('[role=feed] article[aria-hidden=false]');

interface DemoVideo {
  id: number;
  slug: string;
  title: string;
  tags: { name: string }[];
  user: { slug: string; name: string };
}

async function demoVideos(page: Page): Promise<DemoVideo[]> {
  const res = await page.request.get('/v1/videos?gender=m,t&per_page=50');
  return (await res.json()).data;
}

/** Text that shows whole in its box: nothing scrolled out sideways or below a clamp. */
const shownWhole = (el: Element) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight;

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not on screen');
  return b;
}

type Box = Awaited<ReturnType<typeof box>>;
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width - 0.5 &&
  b.x < a.x + a.width - 0.5 &&
  a.y < b.y + b.height - 0.5 &&
  b.y < a.y + a.height - 0.5;

test('the stats date fields show the whole date, from a 320 px phone up', async ({ page, request }) => {
  await signedIn(page, request, 'luna.vega@demo.test');
  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto('/account/stats');
    for (const name of ['From', 'To']) {
      const field = page.getByRole('textbox', { name, exact: true });
      // 'Oct 28, 2025' (or '28 Oct 2025'): the year is part of what shows.
      await expect(field).toHaveValue(/\b\d{4}$/);
      expect(await field.evaluate(shownWhole), `${name} at ${width} px`).toBe(true);
    }
  }
});

test('discover carousel titles use two lines of the tile, whole when they fit', async ({ page }) => {
  await page.goto('/discover');
  const carousel = page.getByRole('region', { name: 'Most liked this week' });
  const titles = carousel.locator('.video-tile-title');
  await expect(titles.first()).toBeVisible();
  for (const title of await titles.all()) {
    const { text, lines, whole, ellipsis } = await title.evaluate((el) => {
      const lineHeight = Number.parseFloat(getComputedStyle(el).lineHeight);
      return {
        text: el.textContent ?? '',
        lines: Math.round(el.clientHeight / lineHeight),
        whole: el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight,
        ellipsis: getComputedStyle(el).webkitLineClamp === '2',
      };
    });
    // Two lines of a tile about 100 px wide hold a demo title ('Electric Fireflies 3'); a longer one ends in
    // an ellipsis on the second line.
    expect(lines, text).toBe(2);
    if (text.length <= 20) expect(whole, text).toBe(true);
    else expect(whole || ellipsis, text).toBe(true);
  }
});

test('a 74-character name is one line beside its badge, over the video and on the profile', async ({
  page,
}) => {
  const name = 'Alexandrina Maximiliana Vanderbilt-Featherstonehaugh of the Northern Coast';
  expect(name).toHaveLength(74);
  // Luna is live and verified: the name as the API would send it, without renaming a shared demo account.
  await page.route(/\/v1\/(videos\/start\/\d+|users\/luna_vega)(\?|$)/, async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replaceAll('"Luna Vega"', JSON.stringify(name));
    await route.fulfill({ response, body });
  });
  const luna = (await demoVideos(page)).find((v) => v.user.slug === 'luna_vega');
  if (!luna) throw new Error('the demo has no video of Luna');

  await page.goto(`/video/${luna.id}/${luna.slug}`);
  const author = current(page).locator('.feed-author');
  await expect(author).toBeVisible();
  // Cut on screen, whole for whoever reads it out.
  await expect(author).toHaveAccessibleName(new RegExp(`^${name}`));
  const shown = author.locator('.feed-author-name');
  const text = await box(shown);
  const badge = await box(author.locator('.live-badge'));
  expect(text.height).toBeLessThan(30);
  expect(await shown.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(await shown.evaluate((el) => getComputedStyle(el).textOverflow)).toBe('ellipsis');
  expect(badge.x - (text.x + text.width)).toBeGreaterThanOrEqual(0);
  expect(badge.x - (text.x + text.width)).toBeLessThanOrEqual(16);
  expect(badge.y + badge.height / 2).toBeGreaterThan(text.y);
  expect(badge.y + badge.height / 2).toBeLessThan(text.y + text.height);
  // The live chip says the name too: one line as well.
  const chip = current(page).getByRole('link', { name: `Live now: watch ${name}` });
  expect((await box(chip)).height).toBeLessThanOrEqual(32);

  await page.goto('/luna_vega');
  const heading = page.getByRole('heading', { level: 1, name });
  await expect(heading).toBeVisible();
  const nameShown = heading.locator('.profile-name-text');
  const nameText = await box(nameShown);
  const verified = await box(heading.getByRole('img', { name: 'Verified' }));
  const lineHeight = await heading.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight));
  expect(nameText.height).toBeLessThanOrEqual(lineHeight + 1);
  expect(await nameShown.evaluate((el) => getComputedStyle(el).textOverflow)).toBe('ellipsis');
  expect(verified.width).toBeGreaterThanOrEqual(20);
  expect(verified.height).toBeGreaterThanOrEqual(20);
  expect(verified.x - (nameText.x + nameText.width)).toBeGreaterThanOrEqual(0);
  expect(verified.x - (nameText.x + nameText.width)).toBeLessThanOrEqual(12);
  expect(verified.x + verified.width).toBeLessThanOrEqual(390);
});

test('hashtag chips and the seek line are 44 px targets that overlap nothing', async ({ page }) => {
  const many = (await demoVideos(page)).find((v) => v.tags.length > 5);
  if (!many) throw new Error('the demo has no clip with more than five tags');
  await page.goto(`/video/${many.id}/${many.slug}`);
  const seek = current(page).getByRole('slider', { name: 'Seek' });
  await expect(seek).toBeVisible();
  const chips = current(page).locator('.feed-tags li > *');
  await expect(chips).toHaveCount(6);
  const seekBox = await box(seek);
  expect(seekBox.height).toBeGreaterThanOrEqual(44);
  const boxes: Box[] = [];
  for (const chip of await chips.all()) {
    const label = (await chip.textContent()) ?? '';
    const b = await box(chip);
    expect(b.height, label).toBeGreaterThanOrEqual(44);
    expect(b.width, label).toBeGreaterThanOrEqual(44);
    expect(overlap(b, seekBox), `${label} and the seek line`).toBe(false);
    for (const other of boxes) expect(overlap(b, other), label).toBe(false);
    boxes.push(b);
    // The whole box takes the tap, its transparent bands included.
    for (const y of [b.y + 2, b.y + b.height - 2]) {
      const hit = await page.evaluate(
        ({ x, y }) => document.elementFromPoint(x, y)?.closest('.feed-tag') !== null,
        { x: b.x + b.width / 2, y },
      );
      expect(hit, `${label} at ${y - b.y} px`).toBe(true);
    }
  }
  // Two rows of chips, the line below them.
  expect(new Set(boxes.map((b) => Math.round(b.y))).size).toBe(2);
  expect(Math.max(...boxes.map((b) => b.y + b.height))).toBeLessThanOrEqual(seekBox.y + 0.5);
});

test('the More sheet draws icons, and Select video says what it does and does it', async ({ page }) => {
  await watchToasts(page);
  await page.goto('/');
  const first = await current(page).getAttribute('aria-label');
  await current(page).getByRole('button', { name: 'More actions' }).click();
  const more = page.getByRole('dialog', { name: 'More' });
  const notes = {
    'Select video': 'Restart your feed from this video',
    Share: 'Send its link, or copy it',
    Report: 'Tell us what is wrong with it',
  };
  for (const [name, note] of Object.entries(notes)) {
    const item = more.getByRole('button', { name, exact: true });
    await expect(item).toHaveAccessibleDescription(note);
    await expect(item.locator('svg')).toBeVisible();
  }
  expect(await more.textContent()).not.toMatch(/[✓↗⚑]/);

  const selected = (await demoVideos(page)).find((v) => v.title === first);
  await more.getByRole('button', { name: 'Select video' }).click();
  await expect.poll(() => toastsSeen(page)).toContain('Video selected: your feed now starts here');
  await expect(page).toHaveURL(new RegExp(`/video/${selected?.id}/${selected?.slug}$`));
  await expect(current(page)).toHaveAttribute('aria-label', first ?? '');
  await expect(current(page)).toHaveAttribute('aria-posinset', '1');
  await expect.poll(() => readKv(page, 'currentVideo')).toEqual({ id: selected?.id, slug: selected?.slug });
  // Spec §2: any tab but home clears it.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Discover' }).click();
  await expect.poll(() => readKv(page, 'currentVideo')).toBeNull();
});
