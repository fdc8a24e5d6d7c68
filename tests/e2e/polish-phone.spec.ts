import { expect, test } from 'playwright/test';
import { signedIn } from './sign-in';

// The rough edges a picky viewer found on a 390 px phone (issue 33), each measured the way it looked wrong:
// text cut or wrapped, a badge squeezed, targets under 44 px, glyphs where the other sheets draw icons.

test.use({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });

/** Text that shows whole in its box: nothing scrolled out sideways or below a clamp. */
const shownWhole = (el: Element) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight;

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
