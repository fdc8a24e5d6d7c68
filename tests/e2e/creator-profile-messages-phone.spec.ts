// Every message of spec §5 and §8 for the owner's profile tools, on screen, one row each. The device's own
// checks run for real; the server's failures are answers the real server does not give on demand (a 500, a
// 402), so those rows answer the one call in question from the test and leave every other call alone.
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, type Page, type Route, test } from 'playwright/test';
import { messages } from '../../src/contract/messages';
import { makeImage } from './media';
import { toast } from './members';
import { signedIn } from './sign-in';

const p = messages.profile;
const LUNA = 'luna.vega@demo.test';

const fail =
  (status: number, message = 'Server exploded') =>
  (route: Route) =>
    route.fulfill({ status, json: { message } });

/** A server answer held back until the test has seen what the screen shows meanwhile. */
function gate() {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { held, release };
}

/** Routes POST /v1/profile of one kind (JSON or multipart) to `handle`; everything else goes through. */
async function onProfilePost(page: Page, kind: 'json' | 'multipart', handle: (route: Route) => unknown) {
  await page.route(
    (url) => url.pathname === '/v1/profile',
    (route) => {
      const request = route.request();
      const type = request.headers()['content-type'] ?? '';
      const matches = kind === 'json' ? type.startsWith('application/json') : type.startsWith('multipart/');
      if (request.method() === 'POST' && matches) return handle(route);
      return route.fallback();
    },
  );
}

/** A first visit downloads the app and installs its service worker: on a busy machine, give it time. */
async function visit(page: Page, slug: string) {
  await page.goto(`/${slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 });
}

const openLuna = (page: Page) => visit(page, 'luna_vega');

async function choose(
  page: Page,
  button: string,
  file: string | { name: string; mimeType: string; buffer: Buffer },
) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: button }).click();
  await (await chooser).setFiles(file);
}

async function openAddLink(page: Page) {
  await page.getByRole('button', { name: 'Add link' }).click();
  return page.getByRole('dialog', { name: 'Add link' });
}

interface Row {
  message: string;
  as?: string;
  /** Does what makes the message appear and checks it where it belongs. */
  run: (page: Page) => Promise<void>;
}

const rows: Row[] = [
  {
    message: p.imageTooLarge,
    run: async (page) => {
      let sent = false;
      page.on('request', (r) => {
        if (r.method() === 'POST' && new URL(r.url()).pathname === '/v1/profile') sent = true;
      });
      await openLuna(page);
      // Only the size is looked at: 16 MB and one byte of anything, as a file on disk (the browser reads
      // it from there rather than the test sending it over).
      const huge = path.join(test.info().outputDir, 'huge.png');
      await fs.mkdir(path.dirname(huge), { recursive: true });
      await fs.writeFile(huge, '');
      await fs.truncate(huge, 16 * 1024 * 1024 + 1);
      await choose(page, 'Edit profile image', huge);
      await expect(toast(page)).toHaveText(p.imageTooLarge);
      await expect(page.getByRole('dialog')).toHaveCount(0);
      expect(sent).toBe(false);
    },
  },
  {
    message: p.imageType,
    run: async (page) => {
      await openLuna(page);
      await choose(page, 'Edit cover image', {
        name: 'anim.gif',
        mimeType: 'image/gif',
        buffer: Buffer.from('GIF89a'),
      });
      await expect(toast(page)).toHaveText(p.imageType);
      await expect(page.getByRole('dialog')).toHaveCount(0);
    },
  },
  {
    message: p.imageFailed,
    run: async (page) => {
      await onProfilePost(page, 'multipart', fail(500));
      await openLuna(page);
      await choose(page, 'Edit profile image', {
        name: 'me.png',
        mimeType: 'image/png',
        buffer: await makeImage('png', 400, 300),
      });
      await page
        .getByRole('dialog', { name: 'Crop profile image' })
        .getByRole('button', { name: 'Next' })
        .click();
      const preview = page.getByRole('dialog', { name: 'Preview' });
      await preview.getByRole('button', { name: 'Update' }).click();
      // Said in the preview, which stays open for another try.
      await expect(preview.getByRole('alert')).toHaveText(p.imageFailed);
      await expect(preview.getByRole('button', { name: 'Update' })).toBeEnabled();
    },
  },
  {
    message: p.invalidLink,
    run: async (page) => {
      await openLuna(page);
      const sheet = await openAddLink(page);
      await sheet.getByLabel('URL').fill('not a web address');
      await sheet.getByRole('button', { name: 'Add link' }).click();
      const url = sheet.getByLabel('URL');
      await expect(url).toHaveAttribute('aria-invalid', 'true');
      await expect(url).toHaveAccessibleDescription(p.invalidLink);
      await expect(url).toBeFocused();
    },
  },
  {
    message: p.linkServerError,
    run: async (page) => {
      await onProfilePost(page, 'json', fail(500));
      await openLuna(page);
      const sheet = await openAddLink(page);
      await sheet.getByLabel('URL').fill('https://fans.example/new');
      await sheet.getByRole('button', { name: 'Add link' }).click();
      await expect(sheet.getByRole('alert')).toHaveText(p.linkServerError);
      // Nothing typed is lost.
      await expect(sheet.getByLabel('URL')).toHaveValue('https://fans.example/new');
    },
  },
  {
    message: '402 on adding a link: to /login',
    run: async (page) => {
      await onProfilePost(page, 'json', fail(402, 'Payment required'));
      await openLuna(page);
      const sheet = await openAddLink(page);
      await sheet.getByLabel('URL').fill('https://fans.example/new');
      await sheet.getByRole('button', { name: 'Add link' }).click();
      await expect(page).toHaveURL(/\/login\?next=%2Fluna_vega$/);
    },
  },
  {
    message: '402 on deleting a link: to /login',
    run: async (page) => {
      await onProfilePost(page, 'json', fail(402, 'Payment required'));
      await openLuna(page);
      await page.getByRole('button', { name: 'Delete link Fan page' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await expect(page).toHaveURL(/\/login\?next=%2Fluna_vega$/);
    },
  },
  {
    message: `${p.confirmDeleteLink} Another failure is silent and the link comes back`,
    run: async (page) => {
      // The answer waits until the test has seen the row leave.
      const answer = gate();
      await onProfilePost(page, 'json', async (route) => {
        await answer.held;
        await fail(500)(route);
      });
      await openLuna(page);
      const links = page.getByRole('region', { name: 'Links' });
      await page.getByRole('button', { name: 'Delete link Fan page' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete link' });
      await expect(confirm).toContainText(p.confirmDeleteLink);
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expect(links.getByRole('link', { name: /Fan page/ })).toHaveCount(0);
      answer.release();
      await expect(links.getByRole('link', { name: /Fan page/ })).toBeVisible();
      await expect(toast(page)).toBeEmpty();
    },
  },
  {
    message: `${p.confirmDeleteVideo} A failure says so and the tile comes back`,
    run: async (page) => {
      const answer = gate();
      await page.route(/\/v1\/videos\/\d+\/delete$/, async (route) => {
        await answer.held;
        await fail(500)(route);
      });
      await openLuna(page);
      const grid = page.getByRole('list', { name: 'Videos' });
      const first = grid.getByRole('listitem').first();
      const title = (await first.getByRole('link').locator('.visually-hidden').textContent()) ?? '';
      await first.getByRole('button', { name: `Delete video ${title}` }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Delete video' });
      await expect(confirm).toContainText(p.confirmDeleteVideo);
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expect(first.locator('.video-tile-status')).toHaveText('Deleting');
      answer.release();
      await expect(toast(page)).toHaveText(p.videoDeleteFailed);
      await expect(first.locator('.video-tile-status')).toHaveText('Approved');
      await expect(first.getByRole('link', { name: title, exact: true })).toBeVisible();
    },
  },
  {
    message: `${p.noLinks} / ${p.noVideos} (the owner's empty profile)`,
    as: 'sky.harbor@demo.test',
    run: async (page) => {
      await visit(page, 'sky_harbor');
      await expect(page.getByRole('region', { name: 'Links' }).getByText(p.noLinks)).toBeVisible();
      await expect(page.getByRole('region', { name: 'Videos' }).getByText(p.noVideos)).toBeVisible();
      // Empty, but the way to fill it is right there.
      await expect(page.getByRole('button', { name: 'Add link' })).toBeVisible();
    },
  },
  {
    message: messages.upload.verifyPrompt,
    as: 'sky.harbor@demo.test',
    run: async (page) => {
      await visit(page, 'sky_harbor');
      await expect(page.getByRole('note')).toContainText(messages.upload.verifyPrompt);
    },
  },
  {
    message: messages.upload.verificationRejected,
    as: 'sky.harbor@demo.test',
    run: async (page) => {
      // No demo account is rejected, and the operator's CLI cannot reach the running server's database.
      await page.route(
        (url) => url.pathname === '/v1/users/sky_harbor',
        async (route) => {
          const response = await route.fetch();
          const body = await response.json();
          body.data.isVerified = 'rejected';
          await route.fulfill({ response, json: body });
        },
      );
      await visit(page, 'sky_harbor');
      const note = page.getByRole('note');
      await expect(note).toContainText(messages.upload.verificationRejected);
      await expect(note.getByRole('link', { name: 'Try again' })).toHaveAttribute(
        'href',
        '/account/settings/validation',
      );
    },
  },
];

test.describe('creator profile messages', () => {
  for (const row of rows) {
    test(row.message, async ({ page, request }) => {
      test.setTimeout(180_000);
      await signedIn(page, request, row.as ?? LUNA);
      await row.run(page);
    });
  }
});
