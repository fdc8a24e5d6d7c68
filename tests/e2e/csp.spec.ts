// The server sends its Content-Security-Policy on every answer, so the whole e2e suite runs under it
// enforced; this walks the screens a guest and a creator reach (feed playback, grids, forms, settings with
// flags, the API reference) and fails on any violation the browser reports.
import { expect, type Page, test } from 'playwright/test';
import { signedIn } from './sign-in';

/** Violations as the page sees them (the event) and as Chrome logs them (the console). */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(`${page.url()}: ${msg.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `Content Security Policy violation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'}`,
      );
    });
  });
  return violations;
}

async function visit(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
}

// The worker's script and its fetches live under the same policy as the page.
test.use({ serviceWorkers: 'allow' });

test('the policy is enforced: an injected inline script does not run, and is reported', async ({ page }) => {
  const violations = await watchViolations(page);
  const res = await page.goto('/discover');
  expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
  const ran = await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true';
    document.head.append(script);
    return (window as unknown as { __inlineRan?: boolean }).__inlineRan ?? false;
  });
  expect(ran).toBe(false);
  await expect.poll(() => violations.length).toBeGreaterThan(0);
});

test('a guest and a creator use the app without a single violation', async ({ page, request }) => {
  const violations = await watchViolations(page);

  // The feed plays (HLS or MP4 through a blob: MediaSource where hls.js is used).
  await visit(page, '/');
  await expect
    .poll(
      () =>
        page.evaluate(() => Array.from(document.querySelectorAll('video')).some((v) => v.currentTime > 0)),
      {
        timeout: 20_000,
      },
    )
    .toBe(true);
  for (const path of [
    '/discover',
    '/channels',
    '/tag/neon',
    '/support',
    '/page/terms',
    '/login',
    '/register',
  ]) {
    await visit(page, path);
  }
  await visit(page, '/v1/docs');
  await expect(page.locator('#ops section').first()).toBeVisible();

  await signedIn(page, request, 'luna.vega@demo.test');
  for (const path of [
    '/account',
    '/luna_vega',
    '/upload',
    '/account/stats',
    '/account/settings',
    '/account/settings/geo-blocking',
  ]) {
    await visit(page, path);
  }
  expect(violations).toEqual([]);
});
