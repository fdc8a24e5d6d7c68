// Issue 15, the upload screens on the real server (both projects): who sees what before choosing a file,
// files refused on the device before a byte is sent, and the whole way through with the keyboard alone,
// with axe-core on every state. The throttled-network scenarios (cut, reload offline, browser restart) are in
// upload-resume-phone.spec.ts, phone project only.
import { expect, type Page, test } from 'playwright/test';
import { expectNoSeriousA11yViolations } from './a11y';
import { toastsSeen, watchToasts } from './members';
import { signedIn } from './sign-in';
import {
  chooseVideo,
  emulateNetwork,
  longClip,
  ownVideo,
  smallClip,
  textAsVideo,
  uploadRecords,
  watchUploads,
} from './upload-helpers';

const CREATOR = 'luna.vega@demo.test';

async function openUpload(page: Page) {
  await page.goto('/upload');
  await expect(page.getByRole('heading', { name: 'Upload', level: 1 })).toBeVisible();
}

test.describe('upload: who may upload', () => {
  test('a guest gets the creator promo', async ({ page }) => {
    await openUpload(page);
    await expect(page.getByRole('heading', { name: 'Are you a content creator?' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Get started' })).toHaveAttribute('href', '/register/model');
    await expectNoSeriousA11yViolations(page);
  });

  test('a plain user is told uploads are for creators, and can register as one', async ({
    page,
    request,
  }) => {
    await signedIn(page, request, 'sam.viewer@demo.test');
    await openUpload(page);
    await expect(page.getByRole('heading', { name: 'Uploads are for creators' })).toBeVisible();
    await expect(page.getByText('Only models and channels can upload videos.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Choose a video' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('button', { name: 'Register as a creator' }).click();
    await expect(page).toHaveURL(/\/register\/model$/);
  });

  test('a model whose identity is not verified is sent to the wizard before choosing a file', async ({
    page,
    request,
  }) => {
    await signedIn(page, request, 'sky.harbor@demo.test');
    await openUpload(page);
    await expect(page.getByText('To upload videos, please verify your identity...')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Choose a video' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Verify my identity' }).click();
    await expect(page).toHaveURL(/\/account\/settings\/validation$/);
  });

  test('a model whose verification is pending gets the same prompt and the pending note', async ({
    page,
    request,
  }) => {
    await signedIn(page, request, 'echo.lane@demo.test');
    await openUpload(page);
    await expect(page.getByText('To upload videos, please verify your identity...')).toBeVisible();
    await expect(
      page.getByText('Your validation request is pending. Be patient, we will validate it in no time!'),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'See my verification' })).toHaveAttribute(
      'href',
      '/account/settings/validation',
    );
  });
});

test.describe('upload: checked on the device first', () => {
  test('a text file named .mp4 is refused before any byte is sent', async ({ page, request }) => {
    await signedIn(page, request, CREATOR);
    await openUpload(page);
    const wire = watchUploads(page);
    await chooseVideo(page, await textAsVideo());
    await expect(
      page.getByRole('alert').filter({ hasText: 'Video upload failed: The file is not a video.' }),
    ).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    // Still step 1, nothing queued, nothing sent.
    await expect(page.getByRole('button', { name: 'Choose a video' })).toBeEnabled();
    expect(await uploadRecords(page)).toEqual([]);
    expect(wire.count()).toBe(0);
  });

  test('a 31-minute video is refused before any byte is sent', async ({ page, request }) => {
    test.setTimeout(120_000);
    const file = await longClip();
    await signedIn(page, request, CREATOR);
    await openUpload(page);
    const wire = watchUploads(page);
    await chooseVideo(page, file);
    await expect(
      page
        .getByRole('alert')
        .filter({ hasText: 'Video upload failed: The video is longer than 30 minutes.' }),
    ).toBeVisible();
    expect(await uploadRecords(page)).toEqual([]);
    expect(wire.count()).toBe(0);
  });
});

test.describe('upload: the whole way, keyboard only', () => {
  test('choose with the keyboard, type the details while it uploads, submit: the video gets them', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const member = await signedIn(page, request, CREATOR);
    await watchToasts(page);
    const file = await smallClip();
    await openUpload(page);
    await expectNoSeriousA11yViolations(page);
    // A phone's uplink (100 KB/s: the 0.45 MB clip takes about 5 s), so the details really are typed while
    // the bytes go and the bar is there to see; unthrottled, the clip was sent before the bar was looked for.
    const uplink = await emulateNetwork(page.context(), page);
    await uplink(false, 100 * 1024);

    // Asked for before the first key: Playwright catches the chooser only once this subscription has reached
    // the browser, and an Enter sent right after it overtook it on the loaded CI machine (the chooser opened
    // unseen). The Tab presses below are round trips that come after it.
    const chooser = page.waitForEvent('filechooser');
    // Tab to the button that opens the file chooser, Enter.
    const choose = page.getByRole('button', { name: 'Choose a video' });
    for (let i = 0; i < 40 && !(await choose.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    await expect(choose).toBeFocused();
    await page.keyboard.press('Enter');
    await (await chooser).setFiles(file);

    // Step 2 at once, while the bytes go.
    const title = page.getByRole('textbox', { name: 'Title' });
    await expect(title).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: 'Details' })).toHaveAttribute(
      'aria-current',
      'step',
    );
    await expect(page.getByRole('progressbar').first()).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Submitting empty says what is missing, on the field, which gets the focus.
    await title.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Title is required.')).toBeVisible();
    await expect(title).toBeFocused();

    const name = `Keyboard take ${Date.now()}`;
    await page.keyboard.type(name);
    await page.keyboard.press('Tab');
    await expect(page.getByRole('textbox', { name: 'Tags' })).toBeFocused();
    // Enter adds a tag; a comma too; the spec's rules refuse bad ones with their words.
    await page.keyboard.type('#nope');
    await page.keyboard.press('Enter');
    await expect(page.getByText('Tags cannot have #.')).toBeVisible();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('keyboard');
    await page.keyboard.press('Enter');
    await page.keyboard.type('e2e,');
    await page.keyboard.type('Keyboard');
    await page.keyboard.press('Enter');
    await expect(page.getByText('Cannot add the same tag twice')).toBeVisible();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await expect(page.getByRole('button', { name: 'Remove #keyboard' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Remove #e2e' })).toBeVisible();

    // Not safe for work, then schedule: the picker appears and must get a date in the future.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('checkbox', { name: 'Not safe for work' })).toBeFocused();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('switch', { name: 'Schedule publication' })).toBeFocused();
    await page.keyboard.press('Space');
    const when = page.getByLabel('Publish on');
    await expect(when).toBeVisible();
    await page.getByRole('button', { name: 'Submit Video' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Select a date')).toBeVisible();
    await expect(when).toBeFocused();
    await when.fill('2001-01-01T10:00');
    await page.getByRole('button', { name: 'Submit Video' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Selected date is in the past')).toBeVisible();
    await page.getByRole('switch', { name: 'Schedule publication' }).focus();
    await page.keyboard.press('Space');
    await expect(when).toBeHidden();

    await page.getByRole('button', { name: 'Submit Video' }).focus();
    await page.keyboard.press('Enter');
    // Spec §4: back to the account (the upload goes on meanwhile, its details with it).
    await expect(page).toHaveURL(/\/account$/);
    // The toast stays 1.5 s: read from the record of toasts shown, which a loaded machine cannot miss.
    await expect
      .poll(async () =>
        (await toastsSeen(page)).some((t) =>
          /^(Video uploaded successfully|Details saved: they go out with the video\.)$/.test(t),
        ),
      )
      .toBe(true);

    // The video on the server has what was typed, whichever came first, the bytes or the details.
    const [record] = await expect
      .poll(async () => (await uploadRecords(page)).filter((r) => r.videoId !== null), { timeout: 60_000 })
      .not.toEqual([])
      .then(async () => (await uploadRecords(page)).filter((r) => r.videoId !== null));
    const videoId = record?.videoId ?? 0;
    await expect
      .poll(async () => (await ownVideo(request, member, videoId))?.title, { timeout: 30_000 })
      .toBe(name);
    const video = await ownVideo(request, member, videoId);
    expect(video?.tags.map((t) => t.name)).toEqual(['keyboard', 'e2e']);

    // Step 1 again on /upload, with the list below it.
    await page.goto('/upload');
    await expect(page.getByRole('button', { name: 'Choose a video' })).toBeVisible();
    await expect(page.getByRole('article', { name })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});
