// Every message of spec §5 and §8 that the verification, studio and geo-blocking screens show, one row each:
// how to bring it about (a real server answer where one exists, else the failure the row is about, made with
// page.route) and the exact words that must then be on screen.
import { expect, type Page, test } from 'playwright/test';
import { geoMessages, messages, socialMessages } from '../../src/contract';
import { makeImage } from '../api/images';
import { admin, type Creator, keepSignedInAs, registerModel } from './creator';

const m = messages.verification;

let images: { jpg: Buffer; png: Buffer } | undefined;
const photos = async () => {
  images ??= { jpg: await makeImage('jpg', 320, 200), png: await makeImage('png', 320, 200) };
  return images;
};

async function open(page: Page, request: import('playwright/test').APIRequestContext, path: string) {
  const creator = await registerModel(request);
  await keepSignedInAs(page, creator);
  await page.goto(path);
  return creator;
}

/** Steps 1 and 2 filled in; `front` replaces the front photo (a file the server will refuse, say). */
async function fillToDeclaration(page: Page, front?: { name: string; mimeType: string; buffer: Buffer }) {
  const { jpg, png } = await photos();
  await page.getByLabel('Full legal name').fill('Nova Elena Reyes');
  await page.getByLabel('Address').fill('Kastanienallee 12, Berlin');
  await page.getByRole('radio', { name: 'Male' }).check();
  await page.getByLabel('Birthday').fill('1994-02-03');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('radio', { name: /ID card/ }).check();
  await page.getByLabel('Document number').fill('L01X00T47');
  await page
    .getByLabel('Front of the document: choose a photo')
    .setInputFiles(front ?? { name: 'front.jpg', mimeType: 'image/jpeg', buffer: jpg });
  await page
    .getByLabel('Back of the document: choose a photo')
    .setInputFiles({ name: 'back.png', mimeType: 'image/png', buffer: png });
  await page
    .getByLabel('Your face, holding the document: choose a photo')
    .setInputFiles({ name: 'face.jpg', mimeType: 'image/jpeg', buffer: jpg });
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Type your name to sign').fill('Nova Elena Reyes');
}

const send = (page: Page) => page.getByRole('button', { name: 'Send for review' }).click();

interface Row {
  /** Where the words come from in the spec. */
  rule: string;
  texts: readonly string[];
  run: (page: Page, request: import('playwright/test').APIRequestContext) => Promise<void>;
}

const rows: Row[] = [
  {
    rule: '§5 verification, personal data: every required field',
    texts: [m.legalName, m.address, m.country, m.dateOfBirth, m.gender, m.stageName, m.age],
    async run(page, request) {
      await open(page, request, '/account/settings/validation');
      await page.getByLabel('Stage name').fill('');
      await page.getByRole('combobox', { name: 'Country' }).selectOption('');
      await page.getByLabel('Age', { exact: true }).fill('');
      await page.getByRole('button', { name: 'Continue' }).click();
    },
  },
  {
    rule: '§5 verification, the document: type, number and the three photos',
    texts: [m.identification, m.identificationId, m.frontPicture, m.backPicture, m.facePicture],
    async run(page, request) {
      await open(page, request, '/account/settings/validation');
      await page.getByLabel('Full legal name').fill('Nova Elena Reyes');
      await page.getByLabel('Address').fill('Kastanienallee 12, Berlin');
      await page.getByRole('radio', { name: 'Male' }).check();
      await page.getByLabel('Birthday').fill('1994-02-03');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
    },
  },
  {
    rule: '§5 verification: the signature',
    texts: [m.signature],
    async run(page, request) {
      await open(page, request, '/account/settings/validation');
      await fillToDeclaration(page);
      await page.getByRole('button', { name: 'Clear' }).click();
      await send(page);
    },
  },
  {
    rule: '§5 verification: a picture over 16 MB, refused before a byte is sent',
    texts: [messages.profile.imageTooLarge],
    async run(page, request) {
      await open(page, request, '/account/settings/validation');
      await page.getByLabel('Full legal name').fill('Nova Elena Reyes');
      await page.getByLabel('Address').fill('Kastanienallee 12, Berlin');
      await page.getByRole('radio', { name: 'Male' }).check();
      await page.getByLabel('Birthday').fill('1994-02-03');
      await page.getByRole('button', { name: 'Continue' }).click();
      // 16 MB and one byte, with a JPEG's first bytes: only its size is wrong.
      const big = Buffer.alloc(16 * 1024 * 1024 + 1);
      big.set([0xff, 0xd8, 0xff]);
      await page
        .getByLabel('Back of the document: choose a photo')
        .setInputFiles({ name: 'huge.jpg', mimeType: 'image/jpeg', buffer: big });
    },
  },
  {
    rule: '§8 verification: 422 is the toast and the field’s message, on its step',
    texts: [m.validationError, messages.profile.imageType],
    async run(page, request) {
      await open(page, request, '/account/settings/validation');
      // Says PNG, is not one: the server's own check answers 422 for the front picture.
      await fillToDeclaration(page, {
        name: 'front.png',
        mimeType: 'image/png',
        buffer: Buffer.from('not a png'),
      });
      await send(page);
      await expect(page.getByText('Step 2 of 4')).toBeVisible();
    },
  },
  {
    rule: '§8 verification: another failure with a message is "{status}: {message}"',
    texts: ['503: Down for maintenance'],
    async run(page, request) {
      await page.route('**/v1/profile/verification', (route) =>
        route.fulfill({ status: 503, json: { message: 'Down for maintenance' } }),
      );
      await open(page, request, '/account/settings/validation');
      await fillToDeclaration(page);
      await send(page);
    },
  },
  {
    rule: '§8 verification: without a message, "{status}: Server error"',
    texts: ['500: Server error'],
    async run(page, request) {
      await page.route('**/v1/profile/verification', (route) => route.fulfill({ status: 500, body: '' }));
      await open(page, request, '/account/settings/validation');
      await fillToDeclaration(page);
      await send(page);
    },
  },
  {
    rule: '§8 verification: no answer at all',
    texts: [m.submitFailed],
    async run(page, request) {
      await page.route('**/v1/profile/verification', (route) => route.abort('internetdisconnected'));
      await open(page, request, '/account/settings/validation');
      await fillToDeclaration(page);
      await send(page);
    },
  },
  {
    rule: '§5 studio: an empty key shows "Invalid key", and the request is still sent',
    texts: [socialMessages.invalidKey],
    async run(page, request) {
      await open(page, request, '/join-studio');
      const sent = page.waitForRequest(
        (r) => r.url().endsWith('/v1/profile/join-studio') && r.postDataJSON()?.key === '',
      );
      await page.getByRole('button', { name: 'Join' }).click();
      await sent;
    },
  },
  {
    rule: '§5/§8 studio: any answer but 200 is "Invalid key"',
    texts: [socialMessages.invalidKey],
    async run(page, request) {
      await open(page, request, '/join-studio');
      await page.getByLabel('Studio key').fill('not-a-key-anyone-made');
      const answer = page.waitForResponse((r) => r.url().endsWith('/v1/profile/join-studio'));
      await page.getByRole('button', { name: 'Join' }).click();
      expect((await answer).status()).toBe(404);
    },
  },
  {
    rule: '§8 studio: leaving fails',
    texts: [socialMessages.leaveFailed],
    async run(page, request) {
      const lines = await admin('studio', 'create', `Leave Test ${Date.now().toString(36)}`);
      const key = /join key \(shown only now\): (\S+)/.exec(lines.join('\n'))?.[1];
      const creator: Creator = await registerModel(request);
      expect(
        (await request.post('/v1/profile/join-studio', { headers: creator.bearer, data: { key } })).ok(),
      ).toBe(true);
      await keepSignedInAs(page, creator);
      await page.route('**/v1/profile/leave-studio', (route) => route.fulfill({ status: 500, json: {} }));
      await page.goto('/account/settings/studio');
      await page.getByRole('button', { name: 'Leave studio' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    },
  },
  {
    rule: '§8 geo: the blocked list does not load',
    texts: [geoMessages.couldNotGetList],
    async run(page, request) {
      await page.route('**/v1/profile/get-geo-blocked-countries', (route) =>
        route.fulfill({ status: 500, json: {} }),
      );
      await open(page, request, '/account/settings/geo-blocking');
    },
  },
  {
    rule: '§8 geo: the countries to choose from do not load',
    texts: [geoMessages.couldNotFetchCountries],
    async run(page, request) {
      await page.route('**/v1/geo/countries', (route) => route.abort());
      await open(page, request, '/account/settings/geo-blocking');
      await page.getByRole('button', { name: 'Add Country' }).click();
    },
  },
  {
    rule: '§5/§8 geo: a region the server does not know',
    texts: [geoMessages.unknownRegion],
    async run(page, request) {
      // A list that offers one region too many; the server's check answers.
      await page.route('**/v1/geo/regions', async (route) => {
        const body = await (await route.fetch()).json();
        body.data.push({ name: 'Atlantis', countryCode: 'US', regionCode: 'ZZ' });
        await route.fulfill({ json: body });
      });
      await open(page, request, '/account/settings/geo-blocking');
      await page.getByRole('button', { name: 'Add Region' }).click();
      await page.getByRole('combobox', { name: 'Region' }).selectOption('US-ZZ');
      await page.getByRole('button', { name: 'Add', exact: true }).click();
    },
  },
  {
    rule: '§8 geo: adding fails',
    texts: [geoMessages.couldNotAdd],
    async run(page, request) {
      await page.route('**/v1/profile/add-geo-blocked-country', (route) =>
        route.fulfill({ status: 500, json: {} }),
      );
      await open(page, request, '/account/settings/geo-blocking');
      await page.getByRole('button', { name: 'Add Country' }).click();
      await page.getByRole('combobox', { name: 'Country' }).selectOption('NL');
      await page.getByRole('button', { name: 'Add', exact: true }).click();
    },
  },
  {
    rule: '§8 geo: removing fails',
    texts: [geoMessages.couldNotRemove],
    async run(page, request) {
      const creator = await registerModel(request);
      await request.post('/v1/profile/add-geo-blocked-country', {
        headers: creator.bearer,
        data: { country_code: 'NL' },
      });
      await keepSignedInAs(page, creator);
      await page.route('**/v1/profile/delete-geo-blocked-country', (route) => route.abort());
      await page.goto('/account/settings/geo-blocking');
      await page.getByRole('button', { name: 'Remove Netherlands from the blocked list' }).click();
    },
  },
];

test.describe('the messages of spec §5 and §8 on the creator screens', () => {
  for (const row of rows) {
    test(row.rule, async ({ page, request }) => {
      test.setTimeout(120_000);
      await row.run(page, request);
      for (const text of row.texts) await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
    });
  }

  test('§5 geo: no choice, or a pair already on the list, is ignored (nothing is sent)', async ({
    page,
    request,
  }) => {
    const creator = await registerModel(request);
    await request.post('/v1/profile/add-geo-blocked-country', {
      headers: creator.bearer,
      data: { country_code: 'NL' },
    });
    await keepSignedInAs(page, creator);
    const sent: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/v1/profile/add-geo-blocked-country')) sent.push(r.postData() ?? '');
    });
    await page.goto('/account/settings/geo-blocking');
    await expect(page.getByText('Netherlands')).toBeVisible();
    await page.getByRole('button', { name: 'Add Country' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add Country' });
    await sheet.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(sheet).toBeVisible();
    await sheet.getByRole('combobox', { name: 'Country' }).selectOption('NL');
    await sheet.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(sheet).toBeHidden();
    await expect(page.getByRole('listitem')).toHaveCount(1);
    // Then a real one goes through, so the listener above could see a request.
    await page.getByRole('button', { name: 'Add Country' }).click();
    await sheet.getByRole('combobox', { name: 'Country' }).selectOption('BE');
    await sheet.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(page.getByRole('listitem')).toHaveCount(2);
    expect(sent.map((body) => JSON.parse(body))).toEqual([{ country_code: 'BE' }]);
  });
});
