// Accessibility as axe-core sees the page a person is on: every new screen must have no serious or critical
// violation (missing labels, contrast, names of buttons, ARIA misuse).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from 'playwright/test';

export async function expectNoSeriousA11yViolations(page: Page, options: { exclude?: string[] } = {}) {
  // axe blends a fading element's colours with what is behind it, so a toast caught in its 0.18 s fade-in
  // reads as low contrast (CI, verification.spec). Measure the page a person reads: after the finite
  // animations end (spinners loop forever and are left running).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `axe-core on ${page.url()}`).toEqual([]);
}
