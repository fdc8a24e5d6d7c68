// /account/settings and its pages (spec §2 'Account settings list', §5 'Profile edit' and 'Password change'),
// the gender preference of the preferences sheet, /support and /account/help, against the real server. Demo
// accounts changed here are put back through the API with the page's own token.
import { expect, type Page, test } from 'playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import {
  DEMO_PASSWORD,
  demo,
  mailsTo,
  memberOn,
  ownAddress,
  ownProfile,
  setProfile,
  toastsSeen,
} from './members';

// axe-core scans and the feed behind the preferences sheet are heavy for a shared 2-core machine.
test.describe.configure({ timeout: 180_000 });

const row = (page: Page, label: string) =>
  page
    .getByRole('link')
    .filter({ has: page.locator('.menu-row-label', { hasText: new RegExp(`^${label}$`) }) });
const shot = async (page: Page, name: string) => {
  if (process.env.E2E_SHOTS_DIR)
    await page.screenshot({ path: `${process.env.E2E_SHOTS_DIR}/${name}-${test.info().project.name}.png` });
};

test.describe('settings list', () => {
  test('a plain user has details, sex and password, with the current values', async ({ page, request }) => {
    const member = await memberOn(page, request, demo.viewer);
    const me = await ownProfile(request, member);
    await page.goto('/account/settings');
    await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
    const rows = page.locator('.menu-row-label');
    await expect(rows).toHaveText(['Details', 'Sex', 'Password']);
    await expect(row(page, 'Details')).toContainText(me.name);
    await expect(row(page, 'Sex')).toContainText(me.gender === 't' ? 'Trans' : 'Male');
    await expectNoSeriousA11yViolations(page);
  });

  test("a creator not yet approved gets 'Account validation' first and highlighted, then the creator tools", async ({
    page,
    request,
  }) => {
    await memberOn(page, request, demo.pendingModel);
    await page.goto('/account/settings');
    await expect(page.locator('.menu-row-label')).toHaveText([
      'Account validation',
      'Details',
      'Sex',
      'Password',
      'Studio',
      'Geo-blocking',
    ]);
    const validation = row(page, 'Account validation');
    await expect(validation).toHaveClass(/is-highlight/);
    await expect(validation).toHaveAttribute('href', '/account/settings/validation');
    await expect(validation).toContainText('Pending review');
    await expect(row(page, 'Studio')).toHaveAttribute('href', '/account/settings/studio');
    await expect(row(page, 'Geo-blocking')).toHaveAttribute('href', '/account/settings/geo-blocking');
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'settings-list');
  });

  test('an approved channel has its colour, and no validation entry', async ({ page, request }) => {
    const member = await memberOn(page, request, demo.channel);
    const me = await ownProfile(request, member);
    await page.goto('/account/settings');
    await expect(page.locator('.menu-row-label')).toHaveText([
      'Details',
      'Sex',
      'Password',
      'Channel color',
      'Studio',
      'Geo-blocking',
    ]);
    await expect(row(page, 'Channel color')).toContainText(me.color);
  });
});

test.describe('settings pages', () => {
  test('a creator changes details and sees them on the profile and in the list', async ({
    page,
    request,
  }) => {
    const member = await memberOn(page, request, demo.pendingModel);
    const before = await ownProfile(request, member);
    const handle = `echo_${Date.now().toString(36)}`;
    try {
      await page.goto('/account/settings');
      await row(page, 'Details').click();
      await expect(page).toHaveURL(/\/account\/settings\/details$/);
      await expect(page.getByLabel('Display name')).toHaveValue(before.name);
      await expect(page.getByLabel('Username')).toHaveValue(before.username);
      await expect(page.getByText(`${before.description.length}/200`)).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      await shot(page, 'settings-details');

      await page.getByLabel('Display name').fill('Echo Lane Live');
      await page.getByLabel('Username').fill(handle);
      await page.getByLabel('Phone number').fill('+1 555 0199');
      await page.getByLabel('Description').fill('Night drives and neon, twice a week.');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => toastsSeen(page)).toContain('User details updated');
      // Back on the list, which shows the new name.
      await expect(page).toHaveURL(/\/account\/settings$/);
      await expect(row(page, 'Details')).toContainText('Echo Lane Live');

      await page.goto(`/${handle}`);
      await expect(page.getByRole('heading', { name: 'Echo Lane Live', level: 1 })).toBeVisible();
      await expect(page.getByText(`@${handle}`)).toBeVisible();
      expect(await ownProfile(request, member)).toMatchObject({
        name: 'Echo Lane Live',
        username: handle,
        phone_number: '+1 555 0199',
        description: 'Night drives and neon, twice a week.',
      });
    } finally {
      await setProfile(request, member, {
        name: before.name,
        username: before.username,
        description: before.description,
        phone_number: before.phone_number,
      });
    }
  });

  test('sex: the other choice is saved and shown in the list', async ({ page, request }) => {
    const member = await memberOn(page, request, demo.pendingModel);
    const before = await ownProfile(request, member);
    const [now, next] = before.gender === 't' ? ['Trans', 'Male'] : ['Male', 'Trans'];
    try {
      await page.goto('/account/settings');
      await row(page, 'Sex').click();
      const group = page.getByRole('group', { name: 'Sex' });
      await expect(group.getByRole('radio', { name: now })).toBeChecked();
      await expectNoSeriousA11yViolations(page);
      await shot(page, 'settings-sex');
      await group.getByText(next).click();
      await page.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => toastsSeen(page)).toContain('Sex changed');
      await expect(row(page, 'Sex')).toContainText(next);
      const gender = (await (await request.get(`/v1/users/${before.slug}`)).json()).data.gender;
      expect(gender).toBe(next === 'Trans' ? 't' : 'm');
    } finally {
      await setProfile(request, member, { gender: before.gender });
    }
  });

  test('password, with the keyboard only: this device stays signed in, others are signed out, the new one works', async ({
    page,
    request,
  }) => {
    const member = await memberOn(page, request, demo.pendingModel);
    // Another device of the same account.
    const other = await request.post('/v1/login', {
      data: { email: demo.pendingModel, password: DEMO_PASSWORD },
    });
    const otherBearer = { Authorization: `Bearer ${(await other.json()).access_token}` };
    const next = `new-${Date.now()}-pw`;
    try {
      await page.goto('/account/settings/password');
      const field = page.getByLabel('Current password');
      await expect(field).toBeVisible();
      await expectNoSeriousA11yViolations(page);
      // Tab from the top of the page to the first field, type, Tab past show/hide, type, and so on, Enter.
      for (let i = 0; i < 12 && !(await field.evaluate((el) => el === document.activeElement)); i++)
        await page.keyboard.press('Tab');
      await expect(field).toBeFocused();
      await page.keyboard.type(DEMO_PASSWORD);
      await page.keyboard.press('Tab');
      await expect(page.getByRole('button', { name: 'Show password' }).first()).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(page.getByLabel('New password', { exact: true })).toBeFocused();
      await page.keyboard.type(next);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await expect(page.getByLabel('Repeat new password')).toBeFocused();
      await page.keyboard.type(next);
      await page.keyboard.press('Enter');
      await expect.poll(() => toastsSeen(page)).toContain('Password changed successfully');
      await expect(page).toHaveURL(/\/account\/settings$/);

      // Still signed in here after a reload; the other device's session has ended.
      await page.reload();
      await expect(page.locator('.menu-row-label').first()).toBeVisible();
      await expect(page).toHaveURL(/\/account\/settings$/);
      expect((await request.get('/v1/profile', { headers: member.bearer })).status()).toBe(200);
      expect((await request.get('/v1/profile', { headers: otherBearer })).status()).toBe(401);
      // Signing in takes the new password, not the old.
      const old = await request.post('/v1/login', {
        data: { email: demo.pendingModel, password: DEMO_PASSWORD },
      });
      expect(old.status()).toBe(401);
      const fresh = await request.post('/v1/login', { data: { email: demo.pendingModel, password: next } });
      expect(fresh.status()).toBe(200);
    } finally {
      await setProfile(request, member, {
        current_password: next,
        password: DEMO_PASSWORD,
        password_confirmation: DEMO_PASSWORD,
      });
    }
  });

  test('channel colour: the preview follows the choice; the list, Channels and the profile show it', async ({
    page,
    request,
  }) => {
    const member = await memberOn(page, request, demo.channel);
    const before = await ownProfile(request, member);
    const border = (locator: ReturnType<Page['locator']>) =>
      locator.evaluate((el) => getComputedStyle(el).borderTopColor);
    try {
      await page.goto('/account/settings/channel-color');
      const preview = page.locator('.settings-preview .channel-card');
      await expect(preview).toContainText(before.name);
      expect(await border(preview)).toBe('rgb(139, 92, 246)');
      await expectNoSeriousA11yViolations(page);
      await shot(page, 'settings-color');

      // A custom colour through the native picker, previewed at once.
      await page.getByLabel('Custom colour').fill('#22aa55');
      await expect.poll(() => border(preview)).toBe('rgb(34, 170, 85)');
      // Then a palette swatch, which is what gets saved.
      await page.getByTitle('Cyan').click();
      await expect(page.getByRole('radio', { name: 'Cyan' })).toBeChecked();
      await expect.poll(() => border(preview)).toBe('rgb(6, 182, 212)');
      await page.getByRole('button', { name: 'Save color' }).click();
      await expect.poll(() => toastsSeen(page)).toContain('Profile image updated successfully');
      await expect(row(page, 'Channel color')).toContainText('#06b6d4');

      await page.goto('/channels');
      const card = page.getByRole('link', { name: new RegExp(before.name) });
      await expect.poll(() => border(card)).toBe('rgb(6, 182, 212)');
      await page.goto(`/${before.slug}`);
      await expect
        .poll(() =>
          page.locator('.profile').evaluate((el) => getComputedStyle(el).getPropertyValue('--profile-color')),
        )
        .toBe('#06b6d4');
    } finally {
      await setProfile(request, member, { color: before.color });
    }
  });
});

test.describe('gender preference', () => {
  test('Trans in the preferences sheet shows trans creators on home and discover, and follows the account', async ({
    page,
    request,
  }) => {
    const member = await memberOn(page, request, demo.viewer);
    const before = await ownProfile(request, member);
    const trans = (await (await request.get('/v1/discover?gender=t')).json()).latestUsers as {
      name: string;
    }[];
    const male = (await (await request.get('/v1/discover?gender=m')).json()).latestUsers as {
      name: string;
    }[];
    expect(trans.length).toBeGreaterThan(0);
    try {
      await page.goto('/');
      const current = page.locator('[role=feed] article[aria-hidden=false]');
      await expect(current).toBeVisible();
      await current.getByRole('button', { name: 'Settings' }).click();
      const sheet = page.getByRole('dialog', { name: 'Preferences' });
      const group = sheet.getByRole('group', { name: 'Show creators' });
      await expect(group.getByRole('radio', { name: 'Male' })).toBeChecked();
      await expectNoSeriousA11yViolations(page);
      await shot(page, 'preferences-sheet');
      await group.getByText('Trans').click();
      await expect(group.getByRole('radio', { name: 'Trans' })).toBeChecked();
      // Applied as the sheet closes: the feed reloads for trans creators, and the account keeps the choice.
      const feed = page.waitForRequest((r) => new URL(r.url()).pathname === '/v1/videos');
      const saved = page.waitForResponse(
        (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/v1/profile',
      );
      await sheet.getByRole('button', { name: 'Done' }).click();
      await expect(sheet).toHaveCount(0);
      expect(new URL((await feed).url()).searchParams.get('gender')).toBe('t');
      expect((await saved).status()).toBe(200);

      // The home feed now plays trans creators' videos only.
      const list = await (await request.get('/v1/videos?gender=t')).json();
      await expect(current).toHaveAttribute('aria-label', list.data[0].title);

      await page.goto('/discover');
      const newest = page.getByRole('region', { name: 'Newest Creators' });
      await expect(newest.getByText(trans[0]?.name ?? '', { exact: true })).toBeVisible();
      for (const creator of male)
        await expect(newest.getByText(creator.name, { exact: true })).toHaveCount(0);

      // Kept on the account for the next device, and on this one across a reload.
      expect((await ownProfile(request, member)).preference).toBe('t');
      await page.reload();
      await expect(newest.getByText(trans[0]?.name ?? '', { exact: true })).toBeVisible();
    } finally {
      await setProfile(request, member, { preference: before.preference ?? 'm' });
    }
  });
});

test.describe('support and help', () => {
  test('the contact form reaches the operator and clears; too many messages get the spec text', async ({
    page,
    request,
  }) => {
    // A client address of this test's own, so the contact rate limit counts only its messages.
    const address = ownAddress();
    await page.setExtraHTTPHeaders({ 'X-Forwarded-For': address });
    const text = `Hello support, case ${Date.now().toString(36)}`;
    await page.goto('/support');
    await expect(page.getByRole('heading', { name: 'User details', level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Support and Contact Information' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Email').fill('fan@example.com');
    await page.getByLabel('Message').fill(text);
    await shot(page, 'support');

    // Held a moment on its way, so the sending state can be seen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/v1/contact', async (route) => {
      await held;
      await route.continue();
    });
    const send = page.getByRole('button', { name: 'Send' });
    await send.click();
    await expect(send).toBeDisabled();
    await expect(send).toHaveAttribute('aria-busy', 'true');
    await expect(send.locator('.form-submit-spinner')).toBeVisible();
    release();
    await expect(page.getByRole('status').filter({ hasText: 'Message sent.' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue('');
    await expect(page.getByLabel('Message')).toHaveValue('');
    await page.unroute('**/v1/contact');
    await expect
      .poll(async () => (await mailsTo('operator@shortcams.local')).some((raw) => raw.includes(text)))
      .toBe(true);

    // The server allows 5 messages per address and window: use up the rest, then the form says so.
    for (let i = 0; i < 4; i++) {
      const res = await request.post('/v1/contact', {
        headers: { 'X-Forwarded-For': address },
        data: { email: 'fan@example.com', message: `filler ${i}` },
      });
      expect(res.status()).toBe(201);
    }
    await page.getByLabel('Email').fill('fan@example.com');
    await page.getByLabel('Message').fill('One more thing');
    await send.click();
    await expect(page.getByRole('alert')).toHaveText('You sent too many messages. Please try again later.');
    // Nothing typed is lost.
    await expect(page.getByLabel('Message')).toHaveValue('One more thing');
  });

  test('help offers Discord, WhatsApp and email support from the build config', async ({ page, request }) => {
    await memberOn(page, request, demo.viewer);
    await page.goto('/account/help');
    await expect(page.getByRole('heading', { name: 'Help', level: 1 })).toBeVisible();
    const channels = page.getByRole('list', { name: 'Support channels' });
    await expect(channels.getByRole('link', { name: /Discord/ })).toHaveAttribute(
      'href',
      'https://discord.gg/shortcams',
    );
    await expect(channels.getByRole('link', { name: /WhatsApp/ })).toHaveAttribute(
      'href',
      'https://wa.me/15550100000',
    );
    await expect(channels.getByRole('link', { name: /WhatsApp/ })).toHaveAttribute('target', '_blank');
    await expect(channels.getByRole('link', { name: /Email support/ })).toHaveAttribute(
      'href',
      'mailto:support@shortcams.local',
    );
    await expect(page.getByRole('link', { name: 'Write to us with the contact form' })).toHaveAttribute(
      'href',
      '/support',
    );
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'help');
  });

  test('settings, following and help are behind the login wrapper', async ({ page }) => {
    for (const path of ['/account/settings/details', '/account/following', '/account/help']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
    }
  });
});
