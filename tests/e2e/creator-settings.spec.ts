// The demo verified model's own tools (issue 14): a studio joined with a key the operator CLI made while the
// server runs, geo-blocks that really hide her from viewers in those places, and statistics that say what the
// API says. Luna ends as she started: in no studio, blocked nowhere.
import { expect, type Locator, type Page, test } from 'playwright/test';
import { sixMonthsAgo, socialMessages, statsMessages, utcDay } from '../../src/contract';
import { formatCount } from '../../src/ui/format';
import { makeImage } from '../api/images';
import { expectNoSeriousA11yViolations } from './a11y';
import { admin } from './creator';
import { signedIn } from './sign-in';

const LUNA = 'luna.vega@demo.test';

// page.route sees the flag requests only when no service worker fetches them for the page.
test.use({ serviceWorkers: 'block' });

/** Tabs from the top of the page until `target` has the focus, as someone without a mouse would. */
async function tabTo(page: Page, target: Locator, max = 40) {
  await page.locator('body').focus();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target}`);
}

async function cleanUp(request: import('playwright/test').APIRequestContext, bearer: Record<string, string>) {
  const { countries } = await (
    await request.get('/v1/profile/get-geo-blocked-countries', { headers: bearer })
  ).json();
  for (const entry of countries)
    await request.post('/v1/profile/delete-geo-blocked-country', { headers: bearer, data: entry });
  await request.post('/v1/profile/leave-studio', { headers: bearer });
}

test.describe('the verified model’s studio, geo-blocking and statistics', () => {
  // Long flows with an accessibility scan at each step.
  test.describe.configure({ timeout: 300_000 });
  test('joins a studio with a key the operator CLI made while the server runs, by keyboard, and leaves it', async ({
    page,
    request,
  }, info) => {
    const luna = await signedIn(page, request, LUNA);
    await cleanUp(request, luna.bearer);
    const name = `Aurora Studio ${info.project.name} ${Date.now().toString(36)}`;
    const lines = await admin('studio', 'create', name);
    const key = /join key \(shown only now\): (\S+)/.exec(lines.join('\n'))?.[1];
    expect(key, lines.join('\n')).toBeTruthy();

    await page.goto('/join-studio');
    const field = page.getByRole('textbox', { name: 'Studio key' });
    await expect(field).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await tabTo(page, field);
    await page.keyboard.type(key ?? '');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name })).toBeVisible();
    await expect(page.getByText('Your studio')).toBeVisible();
    expect(await (await request.get('/v1/profile/studio', { headers: luna.bearer })).json()).toEqual({
      name,
    });
    await expectNoSeriousA11yViolations(page);

    // The settings route is the same screen.
    await page.goto('/account/settings/studio');
    await expect(page.getByRole('heading', { name })).toBeVisible();
    await page.getByRole('button', { name: 'Leave studio' }).click();
    const dialog = page.getByRole('alertdialog', { name: socialMessages.leaveTitle });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText(socialMessages.leaveQuestion)).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect((await request.get('/v1/profile/studio', { headers: luna.bearer })).status()).toBe(200);

    await page.getByRole('button', { name: 'Leave studio' }).click();
    await dialog.getByRole('button', { name: socialMessages.leaveConfirm }).click();
    await expect(page.getByRole('heading', { name: 'Join a studio' })).toBeVisible();
    expect((await request.get('/v1/profile/studio', { headers: luna.bearer })).status()).toBe(404);
  });

  test('blocks a country and a region: viewers there no longer see her, and removing the blocks restores it', async ({
    page,
    request,
  }) => {
    const luna = await signedIn(page, request, LUNA);
    await cleanUp(request, luna.bearer);
    const flag = await makeImage('png', 48, 36);
    // France's flag arrives; every other flag fails, as offline: the neutral tile shows instead.
    await page.route('https://flagcdn.com/**', (route) =>
      route.request().url().endsWith('/48x36/fr.png')
        ? route.fulfill({ status: 200, contentType: 'image/png', body: flag })
        : route.abort(),
    );
    const [video] = (await (await request.get(`/v1/users/${luna.id}/videos`)).json()).data;
    const seenFrom = async (headers: Record<string, string>) => ({
      profile: (await request.get(`/v1/users/${luna.id}`, { headers })).status(),
      video: (await request.get(`/v1/videos/start/${video.id}`, { headers })).status(),
    });
    const visible = { profile: 200, video: 200 };
    const hidden = { profile: 404, video: 404 };
    expect(await seenFrom({ 'cf-ipcountry': 'FR' })).toEqual(visible);

    await page.goto('/account/settings/geo-blocking');
    await expect(page.getByText('You have not blocked any country or region.')).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // A country, with the keyboard alone.
    const addCountry = page.getByRole('button', { name: 'Add Country' });
    await tabTo(page, addCountry);
    await page.keyboard.press('Enter');
    const countrySheet = page.getByRole('dialog', { name: 'Add Country' });
    const countrySelect = countrySheet.getByRole('combobox', { name: 'Country' });
    await expect(countrySelect).toBeFocused();
    await expect(countrySelect.locator('option').first()).toHaveText('Select');
    await expectNoSeriousA11yViolations(page);
    await page.keyboard.type('France');
    await expect(countrySelect).toHaveValue('FR');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(countrySheet).toBeHidden();
    const france = page.getByRole('listitem').filter({ hasText: 'France' });
    await expect(france.getByText('Entire country')).toBeVisible();
    await expect(france.locator('img.geo-flag')).toHaveJSProperty('naturalWidth', 48);
    expect(await seenFrom({ 'cf-ipcountry': 'FR' })).toEqual(hidden);
    expect(await seenFrom({ 'cf-ipcountry': 'DE' })).toEqual(visible);

    // A region of the United States.
    await page.getByRole('button', { name: 'Add Region' }).click();
    const regionSheet = page.getByRole('dialog', { name: 'Add Region' });
    const regionSelect = regionSheet.getByRole('combobox', { name: 'Region' });
    await expect(regionSelect.locator('option').first()).toHaveText('Select');
    await expect(
      regionSelect.locator('optgroup[label="United States"] option', { hasText: 'California' }),
    ).toHaveCount(1);
    await expectNoSeriousA11yViolations(page);
    await regionSelect.selectOption('US-CA');
    await regionSheet.getByRole('button', { name: 'Add', exact: true }).click();
    const california = page.getByRole('listitem').filter({ hasText: 'United States' });
    await expect(california.getByText('Region: California')).toBeVisible();
    // No flag to show: the neutral tile with the code, never a broken image.
    await expect(california.locator('.geo-flag.is-placeholder')).toHaveText('US');
    expect(await seenFrom({ 'cf-ipcountry': 'US', 'cf-region-code': 'US-CA' })).toEqual(hidden);
    expect(await seenFrom({ 'cf-ipcountry': 'US', 'cf-region-code': 'CA' })).toEqual(hidden);
    expect(await seenFrom({ 'cf-ipcountry': 'US', 'cf-region-code': 'US-TX' })).toEqual(visible);
    expect(
      await (await request.get('/v1/profile/get-geo-blocked-countries', { headers: luna.bearer })).json(),
    ).toEqual({
      countries: [
        { country_code: 'FR', region_code: null },
        { country_code: 'US', region_code: 'CA' },
      ],
    });
    await expectNoSeriousA11yViolations(page);

    // Removing both (an icon button named for what it removes) shows her again.
    await page.getByRole('button', { name: 'Remove France from the blocked list' }).click();
    await expect(france).toHaveCount(0);
    await page
      .getByRole('button', { name: 'Remove California, United States from the blocked list' })
      .click();
    await expect(page.getByText('You have not blocked any country or region.')).toBeVisible();
    expect(await seenFrom({ 'cf-ipcountry': 'FR' })).toEqual(visible);
    expect(await seenFrom({ 'cf-ipcountry': 'US', 'cf-region-code': 'US-CA' })).toEqual(visible);
  });

  test('reads statistics that match the API, over the default 30 days and a range picked in the calendar', async ({
    page,
    request,
  }) => {
    const luna = await signedIn(page, request, LUNA);
    // Some activity today, so that the range and the chart have something to show.
    const [video] = (await (await request.get(`/v1/users/${luna.id}/videos`)).json()).data;
    const run = Date.now().toString(36);
    for (let i = 0; i < 3; i++) {
      await request.post('/v1/video-view', { data: { video_id: video.id, guest_id: `stats-${run}-${i}` } });
    }
    await request.post('/v1/video-like', {
      data: { video_id: video.id, type: 'add', guest_id: `stats-${run}-0` },
    });
    const own = (await (await request.get('/v1/profile', { headers: luna.bearer })).json()).data;
    await request.post('/v1/link-click', { data: { link_id: own.links[0].id, guest_id: `stats-${run}` } });
    const api = async (body?: object) =>
      (
        await request.post('/v1/profile/stats', { headers: luna.bearer, ...(body ? { data: body } : {}) })
      ).json();

    await page.goto('/account/stats');
    await expect(page.getByRole('heading', { name: statsMessages.title })).toBeVisible();
    const expected = await api();
    const card = (section: string, label: string) =>
      page
        .getByRole('region', { name: section })
        .locator('.stats-card')
        .filter({ has: page.getByText(label, { exact: true }) })
        .locator('dd');
    const lifetime = [
      ['Videos', expected.lifetime.total_videos],
      ['Likes', expected.lifetime.total_likes],
      ['Views', expected.lifetime.total_views],
      ['Followers', expected.lifetime.total_followers],
    ] as const;
    for (const [label, value] of lifetime)
      await expect(card('All time', label)).toHaveText(formatCount(value));
    const rangeHeading = statsMessages.lastDays(30);
    expect(rangeHeading).toBe('Last 30 days');
    const range = (body: typeof expected) =>
      [
        ['Views', body.range.video_views],
        ['Likes', body.range.video_likes],
        ['New followers', body.range.new_followers],
      ] as const;
    for (const [label, value] of range(expected))
      await expect(card(rangeHeading, label)).toHaveText(formatCount(value));
    expect(expected.range.video_views).toBeGreaterThanOrEqual(3);
    for (const link of expected.range.link_clicks) {
      await expect(
        page.getByRole('listitem').filter({ hasText: link.name }).locator('.stats-link-clicks'),
      ).toHaveText(`${formatCount(link.clicks)} ${link.clicks === 1 ? 'click' : 'clicks'}`);
    }
    // The chart, and the words that stand for it.
    const chart = page.getByRole('img', { name: /^Views and likes per day from/ });
    await expect(chart).toHaveAttribute(
      'aria-label',
      new RegExp(`${expected.range.video_views} views in total`),
    );
    await page.getByText('Daily figures').click();
    const todayRow = page
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader') })
      .last();
    const today = expected.range.daily.at(-1);
    await expect(todayRow.getByRole('cell')).toHaveText([String(today.views), String(today.likes)]);
    await expectNoSeriousA11yViolations(page);

    // A range picked in the calendar: the last 7 days.
    const from = utcDay(new Date(Date.now() - 6 * 86_400_000));
    const to = utcDay(new Date());
    const fromField = page.getByRole('textbox', { name: 'From' });
    await expect(fromField).toHaveJSProperty('readOnly', true);
    await fromField.click();
    const calendar = page.getByRole('dialog', { name: 'From' });
    await expect(calendar).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    // Six months back is the limit: the month before it cannot be reached.
    const earliest = sixMonthsAgo(new Date());
    for (
      let i = 0;
      i < 8 && (await calendar.getByRole('button', { name: 'Previous month' }).isEnabled());
      i++
    )
      await calendar.getByRole('button', { name: 'Previous month' }).click();
    await expect(calendar.locator(`[data-day="${earliest}"]`)).toBeEnabled();
    await expect(
      calendar.locator(`[data-day="${utcDay(new Date(Date.parse(earliest) - 86_400_000))}"]`),
    ).toHaveCount(earliest.endsWith('-01') ? 0 : 1);
    // Forward to the month that holds the range's first day: in a month's first week that is the month before
    // the current one, whose days the calendar does not show.
    for (let i = 0; i < 8 && !(await calendar.locator(`[data-day="${from}"]`).isVisible()); i++)
      await calendar.getByRole('button', { name: 'Next month' }).click();
    const reloaded = page.waitForRequest(
      (r) => r.url().endsWith('/v1/profile/stats') && r.postDataJSON()?.from === from,
    );
    await calendar.locator(`[data-day="${from}"]`).click();
    expect((await reloaded).postDataJSON()).toEqual({ from, to });
    const week = await api({ from, to });
    await expect(page.getByRole('heading', { name: statsMessages.lastDays(7) })).toBeVisible();
    for (const [label, value] of range(week))
      await expect(card(statsMessages.lastDays(7), label)).toHaveText(formatCount(value));

    // A start after the end: the contract's message, and nothing is asked of the server.
    let asked = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/v1/profile/stats')) asked++;
    });
    await page.getByRole('textbox', { name: 'To' }).click();
    const toCalendar = page.getByRole('dialog', { name: 'To' });
    const before = utcDay(new Date(Date.now() - 8 * 86_400_000));
    if (!(await toCalendar.locator(`[data-day="${before}"]`).isVisible()))
      await toCalendar.getByRole('button', { name: 'Previous month' }).click();
    await toCalendar.locator(`[data-day="${before}"]`).click();
    await expect(page.getByText(statsMessages.order)).toBeVisible();
    await page.waitForTimeout(300);
    expect(asked).toBe(0);
    await expect(page.getByRole('heading', { name: statsMessages.lastDays(7) })).toBeVisible();
  });

  test('a screen whose load fails says so with Retry, which loads it: studio, statistics, validation, upload', async ({
    page,
    request,
  }) => {
    await signedIn(page, request, LUNA);
    const screens = [
      {
        path: '/account/settings/studio',
        call: '**/v1/profile/studio',
        title: "Couldn't load your studio",
        // Whichever she is in when this runs: the other test joins and leaves one.
        loaded: page.getByRole('heading', { name: 'Join a studio' }).or(page.getByText('Your studio')),
      },
      {
        path: '/account/stats',
        call: '**/v1/profile/stats',
        title: "Couldn't load your stats",
        loaded: page.getByRole('heading', { name: 'All time' }),
      },
      {
        path: '/account/settings/validation',
        call: '**/v1/profile',
        title: "Couldn't load your profile",
        loaded: page.getByRole('heading', { name: 'Verified' }),
      },
      {
        path: '/upload',
        call: '**/v1/profile',
        title: "Couldn't load your profile",
        loaded: page.getByRole('heading', { name: /Drag and drop a video|Upload a video/ }),
      },
    ];
    for (const { path, call, title, loaded } of screens) {
      let failing = true;
      await page.route(call, (route) =>
        failing
          ? route.fulfill({ status: 500, json: { message: 'Something went wrong, try again later.' } })
          : route.fallback(),
      );
      await page.goto(path);
      const failed = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: title }) });
      await expect(failed).toBeVisible();
      await expect(failed.getByText('Something went wrong, try again later.')).toBeVisible();
      failing = false;
      await failed.getByRole('button', { name: 'Retry' }).click();
      await expect(loaded).toBeVisible();
      await expect(failed).toBeHidden();
      await page.unroute(call);
    }
  });
});
