// The owner's tools on the profile (issue 14, spec §2, §4, §5, §6, §8), as the demo verified model: avatar and
// cover cropped and stored at their sizes, a link added and deleted with the keyboard alone, a video deleted
// from its tile, the contest opened with its HTML made safe, axe-core with every sheet and modal open.
// What these tests change on Luna's profile they put back (profile.spec.ts reads her links and videos).
import { type APIRequestContext, expect, type Locator, type Page, test } from 'playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { admin } from './creator';
import { jpegSize, makeClip, makeImage } from './media';
import { toast } from './members';
import { signedIn, signIn } from './sign-in';
import { ownVideo } from './upload-helpers';

const LUNA = 'luna.vega@demo.test';

const lunaPublic = async (request: APIRequestContext) =>
  (await (await request.get('/v1/users/luna_vega')).json()).data as {
    id: number;
    avatar: string;
    cover: string;
    links: { id: number; name: string; url: string }[];
  };

/**
 * Opens a profile and waits for its name: a first visit downloads the app and installs its service worker,
 * which on a busy machine takes longer than one expect's default.
 */
async function visit(page: Page, slug: string) {
  await page.goto(`/${slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
}

async function shot(page: Page, name: string) {
  const dir = process.env.E2E_SHOTS_DIR;
  if (dir) await page.screenshot({ path: `${dir}/${name}-${test.info().project.name}.png` });
}

/** Presses Tab until the control named `name` has the focus, as someone without a mouse would. */
async function tabTo(page: Page, name: string) {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      return el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? '';
    });
    if (focused === name) return;
  }
  throw new Error(`Tab never reached "${name}"`);
}

const naturalSize = (image: Locator) =>
  image.evaluate((img: HTMLImageElement) => ({ width: img.naturalWidth, height: img.naturalHeight }));

/** The image's CSS matrix inside the crop: how the user has moved and zoomed it. */
const imageTransform = (page: Page) => page.locator('cropper-image').evaluate((el) => el.style.transform);

/** A one-finger drag, as Chromium receives it from a touch screen (the phone project has touch). */
/**
 * Records every Content-Security-Policy violation the page meets. cropperjs 2 styles its elements inside
 * shadow roots; the app's policy allows no inline <style>, so the crop must render with none reported.
 */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `Content Security Policy violation: ${event.effectiveDirective} blocked ${event.blockedURI}`,
      );
    });
  });
  return violations;
}

async function touchDrag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  const cdp = await page.context().newCDPSession(page);
  const point = (x: number, y: number) => [{ x: Math.round(x), y: Math.round(y) }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(from.x, from.y) });
  for (let step = 1; step <= 5; step++) {
    const x = from.x + ((to.x - from.x) * step) / 5;
    const y = from.y + ((to.y - from.y) * step) / 5;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(x, y) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

test.describe('creator profile, owner tools', () => {
  test('crops and saves an avatar and a cover: the stored images are 150x150 and 1000x500', async ({
    page,
    request,
  }) => {
    // Five axe-core runs and two uploads: minutes on a busy two-core machine.
    test.setTimeout(360_000);
    const luna = await signedIn(page, request, LUNA);
    const before = await lunaPublic(request);
    // Put back afterwards: other screens show Luna's own pictures.
    const originals = {
      profile_photo: await (await request.get(before.avatar)).body(),
      profile_cover: await (await request.get(before.cover)).body(),
    };
    const violations = await watchViolations(page);
    const cropperLoads: string[] = [];
    page.on('request', (r) => {
      if (/\/assets\/CropModal-[\w-]+\.js$/.test(r.url())) cropperLoads.push(r.url());
    });

    try {
      await visit(page, 'luna_vega');
      await expectNoSeriousA11yViolations(page);
      await shot(page, 'owner-profile');
      // Looking at the profile costs nothing of the cropper.
      expect(cropperLoads).toEqual([]);

      // The avatar: a landscape PNG, moved by touch (phone) or mouse (wide) and by the keyboard.
      let chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Edit profile image' }).click();
      await (await chooser).setFiles({
        name: 'me.png',
        mimeType: 'image/png',
        buffer: await makeImage('png', 1600, 1200),
      });
      const crop = page.getByRole('dialog', { name: 'Crop profile image' });
      const stage = crop.getByRole('application', { name: 'Image to crop' });
      await expect(crop.getByRole('button', { name: 'Next' })).toBeEnabled();
      expect(cropperLoads).toHaveLength(1);
      // The cropper's shadow-root styles took effect under the policy: its canvas clips and takes touch.
      expect(
        await page
          .locator('cropper-canvas')
          .evaluate((el) => [getComputedStyle(el).overflow, getComputedStyle(el).touchAction]),
      ).toEqual(['hidden', 'none']);
      await expectNoSeriousA11yViolations(page);
      await shot(page, 'crop-avatar');

      const box = await stage.boundingBox();
      if (!box) throw new Error('no crop stage');
      const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      let moved = await imageTransform(page);
      if (test.info().project.name === 'phone') {
        await touchDrag(page, centre, { x: centre.x + 40, y: centre.y });
      } else {
        await page.mouse.move(centre.x, centre.y);
        await page.mouse.down();
        await page.mouse.move(centre.x + 40, centre.y, { steps: 5 });
        await page.mouse.up();
      }
      await expect.poll(() => imageTransform(page)).not.toBe(moved);
      // The dialog is still open: a drag is never taken for a tap on the backdrop.
      await expect(crop).toBeVisible();

      const zoom = crop.getByRole('slider', { name: 'Zoom' });
      await expect(zoom).toHaveAttribute('aria-valuetext', '100%');
      await stage.focus();
      await page.keyboard.press('+');
      await page.keyboard.press('+');
      await expect(zoom).toHaveAttribute('aria-valuetext', '120%');
      moved = await imageTransform(page);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => imageTransform(page)).not.toBe(moved);

      await crop.getByRole('button', { name: 'Next' }).click();
      const preview = page.getByRole('dialog', { name: 'Preview' });
      const result = preview.getByRole('img', { name: 'New profile image' });
      await expect(result).toBeVisible();
      // The preview is the very image that will be sent: already the spec's size on the device.
      expect(await naturalSize(result)).toEqual({ width: 150, height: 150 });
      await expect(preview.getByRole('button', { name: 'Update' })).toBeFocused();
      await expectNoSeriousA11yViolations(page);
      await shot(page, 'preview-avatar');
      await preview.getByRole('button', { name: 'Update' }).click();
      await expect(toast(page)).toHaveText('Profile image updated successfully');
      await expect(preview).toHaveCount(0);
      let after = await lunaPublic(request);
      expect(after.avatar).not.toBe(before.avatar);
      await expect(page.locator('.profile-avatar img')).toHaveAttribute('src', after.avatar);
      expect(jpegSize(await (await request.get(after.avatar)).body())).toEqual({ width: 150, height: 150 });

      // The cover: a portrait JPEG into a 2:1 frame, zoomed with the slider's buttons.
      chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Edit cover image' }).click();
      await (await chooser).setFiles({
        name: 'cover.jpg',
        mimeType: 'image/jpeg',
        buffer: await makeImage('jpg', 900, 1400),
      });
      const coverCrop = page.getByRole('dialog', { name: 'Crop cover image' });
      await expect(coverCrop.getByRole('button', { name: 'Next' })).toBeEnabled();
      await coverCrop.getByRole('button', { name: 'Zoom in' }).click();
      await expect(coverCrop.getByRole('slider', { name: 'Zoom' })).toHaveAttribute('aria-valuetext', '125%');
      await coverCrop.getByRole('button', { name: 'Rotate' }).click();
      await expectNoSeriousA11yViolations(page);
      await shot(page, 'crop-cover');
      await coverCrop.getByRole('button', { name: 'Next' }).click();
      const coverResult = preview.getByRole('img', { name: 'New cover image' });
      await expect(coverResult).toBeVisible();
      expect(await naturalSize(coverResult)).toEqual({ width: 1000, height: 500 });
      await shot(page, 'preview-cover');
      await preview.getByRole('button', { name: 'Update' }).click();
      await expect(toast(page)).toHaveText('Cover image updated successfully');
      after = await lunaPublic(request);
      expect(after.cover).not.toBe(before.cover);
      await expect(page.locator('.profile-cover-img')).toHaveAttribute('src', after.cover);
      expect(jpegSize(await (await request.get(after.cover)).body())).toEqual({ width: 1000, height: 500 });
      // One download of the cropper for both.
      expect(cropperLoads).toHaveLength(1);
      expect(violations).toEqual([]);
    } finally {
      for (const [field, buffer] of Object.entries(originals))
        await request.post('/v1/profile', {
          headers: luna.bearer,
          multipart: { [field]: { name: 'original.jpg', mimeType: 'image/jpeg', buffer } },
        });
    }
  });

  test('a discarded crop sends nothing and leaves the pictures as they were', async ({ page, request }) => {
    test.setTimeout(120_000);
    await signedIn(page, request, LUNA);
    const before = await lunaPublic(request);
    let posts = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === '/v1/profile') posts++;
    });
    await visit(page, 'luna_vega');
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Edit profile image' }).click();
    await (await chooser).setFiles({
      name: 'me.jpg',
      mimeType: 'image/jpeg',
      buffer: await makeImage('jpg', 640, 640),
    });
    const crop = page.getByRole('dialog', { name: 'Crop profile image' });
    await crop.getByRole('button', { name: 'Next' }).click();
    const preview = page.getByRole('dialog', { name: 'Preview' });
    // Back to the crop and forward again keeps the same picture in hand.
    await preview.getByRole('button', { name: 'Adjust the crop' }).click();
    await expect(crop.getByRole('button', { name: 'Next' })).toBeEnabled();
    await crop.getByRole('button', { name: 'Next' }).click();
    await preview.getByRole('button', { name: 'Discard' }).click();
    await expect(preview).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Edit profile image' })).toBeFocused();
    expect(posts).toBe(0);
    expect((await lunaPublic(request)).avatar).toBe(before.avatar);
  });

  test('adds a link and deletes it with the keyboard alone', async ({ page, request }) => {
    test.setTimeout(180_000);
    const luna = await signedIn(page, request, LUNA);
    const before = await lunaPublic(request);
    const project = test.info().project.name;
    const name = `Wishlist ${project}`;
    const url = `wishlist.example/luna-${project}`;
    try {
      await visit(page, 'luna_vega');

      await tabTo(page, 'Add link');
      await page.keyboard.press('Enter');
      const sheet = page.getByRole('dialog', { name: 'Add link' });
      await expect(sheet.getByLabel('URL')).toBeFocused();
      await expectNoSeriousA11yViolations(page);
      await shot(page, 'add-link');
      await page.keyboard.type(url);
      await page.keyboard.press('Tab');
      await expect(sheet.getByLabel('Name')).toBeFocused();
      await page.keyboard.type(name);
      await page.keyboard.press('Enter');
      await expect(toast(page)).toHaveText('Link added');
      await expect(sheet).toHaveCount(0);

      const links = page.getByRole('region', { name: 'Links' });
      const added = links.getByRole('link', { name: new RegExp(name) });
      await expect(added).toHaveAttribute('href', `https://${url}`);
      const stored = (await lunaPublic(request)).links;
      expect(stored.map((l) => l.id).slice(0, before.links.length)).toEqual(before.links.map((l) => l.id));
      expect(stored.at(-1)).toMatchObject({ name, url: `https://${url}` });

      await tabTo(page, `Delete link ${name}`);
      await page.keyboard.press('Enter');
      const confirm = page.getByRole('alertdialog', { name: 'Delete link' });
      await expect(confirm).toContainText('Are you sure you want to delete the link?');
      // The safe answer has the focus; the destructive one is a deliberate Tab away.
      await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await expectNoSeriousA11yViolations(page);
      await shot(page, 'delete-link');
      await page.keyboard.press('Tab');
      await expect(confirm.getByRole('button', { name: 'Delete' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(toast(page)).toHaveText('Link deleted successfully');
      await expect(added).toHaveCount(0);
      expect((await lunaPublic(request)).links).toEqual(before.links);
    } finally {
      for (const link of (await lunaPublic(request)).links.filter((l) => l.name === name))
        await request.post('/v1/profile', {
          headers: luna.bearer,
          data: { links: [{ id: link.id, action: 'delete' }] },
        });
    }
  });

  test('deletes a video from its tile: Deleting at once, then gone for a guest', async ({
    page,
    request,
    browser,
  }) => {
    test.setTimeout(300_000);
    // A clip of its own, uploaded for this test: the demo videos are what the feed tests swipe through.
    const owner = await signIn(request, LUNA);
    const upload = await request.post('/v1/videos/upload', {
      headers: owner.bearer,
      multipart: { video: { name: 'clip.mp4', mimeType: 'video/mp4', buffer: await makeClip() } },
    });
    expect(upload.status()).toBe(201);
    const { videoId } = await upload.json();
    const title = `Delete me ${test.info().project.name} ${videoId}`;
    try {
      const details = await request.post('/v1/videos/upload-details', {
        headers: owner.bearer,
        data: { videoId, title, tags: 'loop', is_nsfw: false, schedule: false },
      });
      expect(details.ok()).toBe(true);
      const guestSees = async () =>
        (
          (await (await request.get('/v1/users/luna_vega/videos?page=1')).json()).data as { id: number }[]
        ).some((v) => v.id === videoId);
      // Public once transcoded and approved by an operator (UPLOAD_REVIEW=before): the delete then has
      // something to take away from guests.
      await expect
        .poll(async () => (await ownVideo(request, owner, videoId))?.inReview, {
          timeout: 240_000,
          intervals: [2000],
        })
        .toBe(true);
      await admin('videos', 'approve', String(videoId));
      await expect.poll(guestSees, { timeout: 30_000, intervals: [1000] }).toBe(true);

      await signedIn(page, request, LUNA);
      await visit(page, 'luna_vega');
      const grid = page.getByRole('list', { name: 'Videos' });
      await expect(grid.getByRole('link', { name: title, exact: true })).toBeVisible();
      await grid.getByRole('button', { name: `Delete video ${title}` }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete video' });
      await expect(confirm).toContainText('Are you sure you want to delete the video?');
      await expectNoSeriousA11yViolations(page);
      await shot(page, 'delete-video');
      await confirm.getByRole('button', { name: 'Delete' }).click();
      const tile = grid.getByRole('listitem').filter({ hasText: title });
      await expect(tile.locator('.video-tile-status')).toHaveText('Deleting');
      await expect(toast(page)).toHaveText('Video deleted successfully');
      // A video on its way out opens nothing and offers no second delete.
      await expect(tile.getByRole('link')).toHaveCount(0);
      await expect(tile.getByRole('button')).toHaveCount(0);
      expect(await guestSees()).toBe(false);

      const guest = await browser.newContext({
        baseURL: process.env.E2E_BASE_URL,
        storageState: process.env.E2E_STORAGE_STATE,
      });
      try {
        const visitor = await guest.newPage();
        await visit(visitor, 'luna_vega');
        const guestGrid = visitor.getByRole('list', { name: 'Videos' });
        await expect(guestGrid.getByRole('link').first()).toBeVisible();
        await expect(guestGrid.getByRole('link', { name: title, exact: true })).toHaveCount(0);
      } finally {
        await guest.close();
      }
    } finally {
      // A failure before the delete must not leave the clip on Luna's profile.
      await request.get(`/v1/videos/${videoId}/delete`, { headers: owner.bearer });
    }
  });

  test("opens Luna's contest 'Loop of the month' with its HTML", async ({ page }) => {
    test.setTimeout(120_000);
    await visit(page, 'luna_vega');
    const banner = page
      .getByRole('list', { name: 'Contests' })
      .getByRole('button', { name: /Loop of the month/ });
    await banner.click();
    const sheet = page.getByRole('dialog', { name: 'Loop of the month' });
    await expect(sheet.getByText('Send me your favourite loop before the 30th.')).toBeVisible();
    await expect(sheet.locator('strong')).toHaveText('private show');
    await expect(sheet.getByRole('listitem')).toHaveText(['One entry per fan', 'Winners announced live']);
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'contest');
    await sheet.getByRole('button', { name: 'Close' }).click();
    await expect(sheet).toHaveCount(0);
    await expect(banner).toBeFocused();
  });

  test('contest HTML from the server runs no script', async ({ page }) => {
    // The server stores what a creator's contest says; here it says something hostile.
    await page.route(
      (url) => url.pathname === '/v1/users/luna_vega',
      async (route) => {
        const response = await route.fetch();
        const body = await response.json();
        body.data.contests = [
          {
            id: 999,
            title: 'Hostile contest',
            content:
              '<p>Win <em>big</em></p><script>window.__pwned = "script"</script>' +
              '<img src="/no-such-image.png" onerror="window.__pwned = \'onerror\'">' +
              '<a href="javascript:window.__pwned=\'link\'">rules</a>',
          },
        ];
        await route.fulfill({ response, json: body });
      },
    );
    await visit(page, 'luna_vega');
    await page.getByRole('button', { name: /Hostile contest/ }).click();
    const sheet = page.getByRole('dialog', { name: 'Hostile contest' });
    await expect(sheet.locator('em')).toHaveText('big');
    // Give a broken image its chance to fire onerror, then look.
    await page.waitForLoadState('networkidle');
    await sheet.getByText('rules').click();
    expect(await page.evaluate(() => (window as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(await sheet.locator('script').count()).toBe(0);
    expect(await sheet.locator('[onerror]').count()).toBe(0);
  });

  test('a creator who may not upload yet is told so, with the way to verify', async ({ page, request }) => {
    test.setTimeout(240_000);
    for (const [email, slug, action] of [
      ['sky.harbor@demo.test', 'sky_harbor', 'Verify now'],
      ['echo.lane@demo.test', 'echo_lane', 'Check status'],
    ] as const) {
      await page.context().clearCookies();
      await signedIn(page, request, email);
      await visit(page, slug);
      const note = page.getByRole('note');
      await expect(note).toContainText('To upload videos, please verify your identity...');
      await expect(note.getByRole('link', { name: action })).toHaveAttribute(
        'href',
        '/account/settings/validation',
      );
      const tools = page.getByRole('navigation', { name: 'Your account' });
      await expect(tools.getByRole('link', { name: 'Verify identity' })).toHaveAttribute(
        'href',
        '/account/settings/validation',
      );
      // Spec §2: help and stats are the models' (both are models here).
      await expect(tools.getByRole('link')).toHaveText(['Help', 'Stats', 'Settings', 'Verify identity']);
      await expectNoSeriousA11yViolations(page);
    }
  });
});
