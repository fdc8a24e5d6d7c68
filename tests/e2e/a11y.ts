// Accessibility as axe-core sees the page a person is on: every new screen must have no serious or critical
// violation (missing labels, contrast, names of buttons, ARIA misuse).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from 'playwright/test';

export async function expectNoSeriousA11yViolations(page: Page, options: { exclude?: string[] } = {}) {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, `axe-core on ${page.url()}`).toEqual([]);
}
