// The app frame around every screen (issue 6): the 18+ gate, the side drawer for guests and members, the
// login wrapper, back buttons, and the stored selection that non-home tabs clear.
import { expect, test } from 'playwright/test';
import { AGE_CONFIRM_BUTTON } from './age-gate';
import { readKv } from './device';
import { signIn } from './sign-in';

test.describe('age gate', () => {
  // A device that has never answered: no storage state at all.
  test.use({ storageState: { cookies: [], origins: [] } });

  test('a first visit must confirm 18+ before anything shows; the answer is remembered', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Adults only' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    await expect(page.locator('video')).toHaveCount(0);
    await expect(page.getByRole('img', { name: 'RTA: Restricted To Adults' })).toBeVisible();

    // The terms it refers to can be read before answering.
    await page.getByRole('link', { name: 'Terms' }).click();
    await expect(page).toHaveURL(/\/page\/terms$/);
    await page.goBack();

    await page.getByRole('button', { name: AGE_CONFIRM_BUTTON }).click();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect.poll(() => readKv(page, 'ageConfirmed')).toBe(true);
    await page.reload();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Adults only' })).toHaveCount(0);
  });
});

test.describe('side drawer', () => {
  test('guests get the creator promo, login, links, footer pages, social link and rating label', async ({
    page,
  }) => {
    await page.goto('/discover');
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    await expect(menu.getByText('Are you a content creator?')).toBeVisible();
    await expect(menu.getByText('Promote your videos')).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Get started' })).toHaveAttribute('href', '/register');
    await expect(menu.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    await expect(menu.getByRole('link', { name: 'Discover' })).toHaveAttribute('href', '/discover');
    await expect(menu.getByRole('link', { name: 'Channels' })).toHaveAttribute('href', '/channels');
    await expect(menu.getByRole('link', { name: 'Live Cams' })).toHaveAttribute('target', '_blank');
    await expect(menu.getByRole('link', { name: 'Webcam Reviews' })).toHaveAttribute('target', '_blank');
    await expect(menu.getByRole('link', { name: 'My account' })).toHaveCount(0);
    await expect(menu.getByRole('button', { name: 'Log out' })).toHaveCount(0);
    for (const slug of ['faq', 'policy', 'dmca', '2257', 'support', 'terms']) {
      await expect(menu.locator(`a[href="/page/${slug}"]`)).toBeVisible();
    }
    await expect(menu.getByRole('link', { name: 'Follow us' })).toHaveAttribute('href', /^https:\/\//);
    const label = menu.getByRole('img', { name: 'RTA: Restricted To Adults' });
    await expect(label).toBeVisible();
    expect(await label.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    // Live Cams from the menu is event 3 (spec §9), posted through the outbox.
    const event = page.waitForRequest((r) => r.url().endsWith('/v1/event') && r.method() === 'POST');
    const popup = page.context().waitForEvent('page');
    await menu.getByRole('link', { name: 'Live Cams' }).click();
    expect((await event).postDataJSON()).toMatchObject({ event_id: 3 });
    await (await popup).close();

    // A guest's Rate videos asks them to sign up.
    await page.getByRole('button', { name: 'Menu' }).click();
    await menu.getByRole('button', { name: 'Rate videos' }).click();
    await expect(
      page.getByRole('dialog', { name: 'Rate videos' }).getByRole('link', { name: 'Sign up' }),
    ).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();

    // A footer page opens in the app, and its back button returns to where the menu was opened.
    await page.getByRole('button', { name: 'Menu' }).click();
    await menu.locator('a[href="/page/faq"]').click();
    await expect(page).toHaveURL(/\/page\/faq$/);
    await expect(menu).toBeHidden();
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/discover$/);
  });

  test('members get their account, upload and rating links, and log out for good', async ({
    page,
    request,
  }) => {
    const { auth } = await signIn(request);
    await page.goto('/discover');
    // Once, not on every load: this test logs out and must stay logged out.
    await page.evaluate((value) => localStorage.setItem('shortcams.auth', value), auth);
    await page.reload();

    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu.getByRole('link', { name: 'My account' })).toHaveAttribute('href', '/account');
    await expect(menu.getByRole('link', { name: 'Upload video' })).toHaveAttribute('href', '/upload');
    await expect(menu.getByRole('link', { name: 'Rate videos' })).toHaveAttribute(
      'href',
      '/videos-rating/unrated',
    );
    await expect(menu.getByRole('link', { name: 'Login' })).toHaveCount(0);
    await expect(menu.getByText('Are you a content creator?')).toHaveCount(0);

    // Protected screens open for a member.
    await menu.getByRole('link', { name: 'My account' }).click();
    await expect(page).toHaveURL(/\/account$/);

    await page.getByRole('button', { name: 'Menu' }).click();
    await menu.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('shortcams.auth'))).toBeNull();
    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(menu.getByRole('link', { name: 'Login' })).toBeVisible();
  });
});

test.describe('login wrapper', () => {
  test('guests are sent to /login from member screens; /upload shows the creator promo', async ({ page }) => {
    for (const path of [
      '/account',
      '/account/settings',
      '/account/settings/studio',
      '/account/settings/geo-blocking',
      '/account/stats',
      '/account/following',
    ]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/login$/);
    }
    await page.goto('/upload');
    await expect(page).toHaveURL(/\/upload$/);
    await expect(page.getByRole('heading', { name: 'Are you a content creator?' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Get started' })).toBeVisible();
  });
});
test.describe('tabs and back buttons', () => {
  test('a back button on an entry page goes home; any tab but home forgets the selected video', async ({
    page,
  }) => {
    await page.goto('/page/dmca');
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/$/);

    await page.goto('/discover');
    const tile = page.locator('.carousel .video-tile').first();
    const title = await tile.locator('.video-tile-title').textContent();
    await tile.click();
    await expect(page).toHaveURL(/\/discover\/category\/[a-z-]+\/feed$/);
    await expect(page.locator('[role=feed] article[aria-hidden=false]')).toHaveAttribute(
      'aria-label',
      title ?? '',
    );
    expect(await readKv(page, 'currentVideo')).toMatchObject({ id: expect.any(Number) });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Channels' }).click();
    await expect.poll(() => readKv(page, 'currentVideo')).toBeNull();
  });
});

test('what animates forever (the live dots) moves only by transform and opacity, without repainting the page', async ({
  page,
}) => {
  // A box-shadow pulse repainted every screen on the main thread each frame, for as long as it was open.
  for (const path of ['/', '/discover']) {
    await page.goto(path);
    await expect(page.locator('.live-dot').first()).toBeVisible();
    const painted = await page.evaluate(() =>
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations === Number.POSITIVE_INFINITY)
        .flatMap((animation) =>
          (animation.effect as KeyframeEffect)
            .getKeyframes()
            .flatMap((frame) => Object.keys(frame))
            .filter(
              (key) =>
                !['offset', 'computedOffset', 'easing', 'composite', 'transform', 'opacity'].includes(key),
            )
            .map((key) => `${(animation as CSSAnimation).animationName}: ${key}`),
        ),
    );
    expect(painted).toEqual([]);
    expect(await page.evaluate(() => document.getAnimations().length)).toBeGreaterThan(0);
  }
});
