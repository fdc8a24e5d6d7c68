import { expect, type Page } from 'playwright/test';

/**
 * Whether the rating prompt is open once a move has landed. It opens in an effect after the move commits:
 * two frames after the new position shows, it is open if it is going to be. A check before that can miss it,
 * and the next swipe or key then lands on its sheet (which rightly owns them) instead of the feed.
 */
export async function ratingPromptShown(page: Page): Promise<boolean> {
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  return page.getByRole('dialog', { name: 'Rate this video' }).isVisible();
}

/** The prompt comes after a random 2 to 5 videos; tests that are about something else close it. */
export async function closeRatingPrompt(page: Page) {
  if (await ratingPromptShown(page)) {
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Rate this video' })).toBeHidden();
  }
}
