// Ad formats of the feed's own page from the operator's /ads.json (spec §1), on every screen size: an
// unreachable ad host, and the pop.
import { expect, test } from 'playwright/test';
import { answerAdHost, current, footer, message, PAST_IM_DELAY_MS, serveAds } from './ads';

test.describe('ad formats', () => {
  test.beforeEach(async ({ page }) => {
    await answerAdHost(page);
  });

  test('an unreachable ad host shows nothing and never holds up the feed', async ({ page }) => {
    await serveAds(page, [
      { name: 'strip', slotId: 'f-1', type: 'footer', src: 'https://ads.example/strip.png' },
      { name: 'hello', slotId: 'im-1', type: 'im', src: 'https://ads.example/im.png', text: 'Hi' },
    ]);
    await page.context().unrouteAll();
    await page.context().route('https://ads.example/**', (route) => route.abort('internetdisconnected'));
    await page.goto('/');
    await expect(current(page).locator('video')).toBeVisible();
    await expect
      .poll(
        () =>
          current(page)
            .locator('video')
            .evaluate((el: HTMLVideoElement) => el.currentTime),
        {
          timeout: 20_000,
        },
      )
      .toBeGreaterThan(0.2);
    await page.waitForTimeout(PAST_IM_DELAY_MS);
    await expect(footer(page)).toHaveCount(0);
    await expect(message(page)).toHaveCount(0);
  });

  test('a pop opens on the first tap of a session, and not again within a day', async ({ page, context }) => {
    await context.route('**/ads.json', (route) =>
      route.fulfill({ json: [{ name: 'pop', slotId: 'p-1', type: 'pop', href: 'https://ads.example/pop' }] }),
    );
    // The pop arms itself (a capturing window pointerup listener, the app's only one) once its lazy code and
    // the device store have answered; a tap before then opens nothing, so the test taps after (CI, two
    // workers). Playwright's own script adds window pointerup listeners too, as `{ capture: true, passive:
    // false }`, when it first evaluates in the page: counted as the pop's, they let the test tap 1-3 s early,
    // and with two workers here it met a pop that was not armed yet 10 times in 12.
    await context.addInitScript(() => {
      const add = window.addEventListener;
      window.addEventListener = function (this: Window, ...args: Parameters<typeof add>) {
        if (args[0] === 'pointerup' && args[2] === true) Object.assign(window, { popArmed: true });
        return add.apply(this, args);
      } as typeof add;
    });
    await page.goto('/');
    await expect(current(page).locator('video')).toBeVisible();
    await page.waitForFunction(() => 'popArmed' in window);
    // Nothing opens by itself.
    await page.waitForTimeout(1_000);
    expect(context.pages()).toHaveLength(1);

    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Got it' }).click();
    const opened = await popup;
    await opened.waitForLoadState();
    expect(opened.url()).toBe('https://ads.example/pop');
    await opened.close();

    // The second tap of the session opens nothing.
    await page.getByRole('button', { name: 'Got it' }).click();
    // A new tab is a new session, but the last pop is less than a day old.
    const second = await context.newPage();
    await second.goto('/');
    await expect(current(second).locator('video')).toBeVisible();
    await current(second).getByRole('button', { name: 'Like' }).click();
    await second.waitForTimeout(1_000);
    expect(context.pages()).toHaveLength(2);
  });
});
