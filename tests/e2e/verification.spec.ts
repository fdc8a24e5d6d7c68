// A newly registered model verifies their identity (issue 14): the four-step wizard with three real photos
// and a signature drawn with the mouse, a reload half-way that loses nothing (fields, photos, signature: kept
// in IndexedDB), pending on the server, then the operator approves with the CLI while the server runs, and
// uploading opens up.
import { expect, type Page, test } from 'playwright/test';
import { messages } from '../../src/contract';
import { makeImage } from '../api/images';
import { expectNoSeriousA11yViolations } from './a11y';
import { admin, keepSignedInAs, registerModel } from './creator';

const m = messages.verification;

/** What the wizard's draft holds on the device, read the way the app reads it after a reload. */
const draftOnDevice = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<Record<string, string | number | null>>((resolve, reject) => {
        const open = indexedDB.open('shortcams-drafts');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const store = open.result.transaction('drafts').objectStore('drafts');
          const all = store.getAll();
          all.onsuccess = () => {
            const draft =
              (all.result as Record<string, unknown>[]).find((d) => 'front_picture_id' in d) ?? {};
            const describe = (value: unknown) =>
              value instanceof File
                ? `File ${value.name} ${value.type} ${value.size}`
                : value instanceof Blob
                  ? `Blob ${value.type} ${value.size > 0 ? 'non-empty' : 'empty'}`
                  : (value as string | number | null);
            resolve(Object.fromEntries(Object.entries(draft).map(([k, v]) => [k, describe(v)])));
          };
        };
      }),
  );

/** Dark pixels on the signature canvas: something is drawn. */
const inkOnPad = (page: Page) =>
  page.locator('canvas.signature-canvas').evaluate((canvas: HTMLCanvasElement) => {
    const data = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data ?? [];
    let ink = 0;
    for (let i = 0; i < data.length; i += 4) if ((data[i] ?? 255) < 100) ink++;
    return ink;
  });

async function drawSignature(page: Page) {
  // A stroke made before the pad's code has loaded draws nothing (on a busy machine that took seconds).
  await expect(page.locator('.signature-placeholder')).toHaveText('Sign here');
  const box = await page.locator('canvas.signature-canvas').boundingBox();
  if (!box) throw new Error('no signature pad');
  const at = (x: number, y: number) => [box.x + box.width * x, box.y + box.height * y] as const;
  await page.mouse.move(...at(0.15, 0.6));
  await page.mouse.down();
  for (const [x, y] of [
    [0.25, 0.3],
    [0.35, 0.7],
    [0.45, 0.35],
    [0.55, 0.65],
    [0.7, 0.4],
    [0.85, 0.55],
  ] as const)
    await page.mouse.move(...at(x, y), { steps: 6 });
  await page.mouse.up();
}

const tusCreate = (request: import('playwright/test').APIRequestContext, bearer: Record<string, string>) =>
  request.post('/v1/uploads', {
    headers: { ...bearer, 'Tus-Resumable': '1.0.0', 'Upload-Length': '1024' },
  });

test('a new model verifies their identity; after the operator approves, uploads are allowed', async ({
  page,
  request,
}) => {
  test.setTimeout(420_000);
  const nova = await registerModel(request, 'Nova Reyes');
  await keepSignedInAs(page, nova);
  const before = await tusCreate(request, nova.bearer);
  expect(before.status()).toBe(403);
  expect((await before.json()).message).toBe(messages.upload.verifyPrompt);
  const [front, back, face] = await Promise.all([
    makeImage('jpg', 640, 400),
    makeImage('png', 640, 400),
    makeImage('jpg', 480, 640),
  ]);

  // The profile asks for it.
  await page.goto(`/${nova.username}`);
  await page.getByRole('link', { name: 'Verify identity' }).click();
  await expect(page).toHaveURL(/\/account\/settings\/validation$/);

  // Step 1: personal data.
  await expect(page.getByText('Step 1 of 4')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel('Full legal name').fill('Nova Elena Reyes');
  await expect(page.getByLabel('Stage name')).toHaveValue('Nova Reyes');
  await page.getByLabel('Address').fill('Kastanienallee 12, 10435 Berlin');
  await expect(page.getByRole('combobox', { name: 'Country' })).toHaveValue('DE');
  await page.getByRole('radio', { name: 'Trans' }).check();
  const birthday = page.getByLabel('Birthday');
  const max = await birthday.getAttribute('max');
  const latest = new Date();
  latest.setFullYear(latest.getFullYear() - 18);
  latest.setDate(latest.getDate() + 2);
  expect(max).toBe(
    new Date(Date.UTC(latest.getFullYear(), latest.getMonth(), latest.getDate())).toISOString().slice(0, 10),
  );
  await expect(page.getByLabel('Age', { exact: true })).toHaveValue('18');
  await birthday.fill('1996-04-21');
  const age =
    new Date().getFullYear() - 1996 - (new Date() < new Date(new Date().getFullYear(), 3, 21) ? 1 : 0);
  await expect(page.getByLabel('Age', { exact: true })).toHaveValue(String(age));
  await page.getByRole('button', { name: 'Continue' }).click();

  // Step 2: the document and its three photos.
  await expect(page.getByText('Step 2 of 4')).toBeVisible();
  await page.getByRole('radio', { name: /Passport/ }).check();
  await page.getByLabel('Document number').fill('C01X00T47');
  await page.getByLabel('Front of the document: choose a photo').setInputFiles({
    name: 'front.jpg',
    mimeType: 'image/jpeg',
    buffer: front,
  });
  await page.getByLabel('Back of the document: choose a photo').setInputFiles({
    name: 'back.png',
    mimeType: 'image/png',
    buffer: back,
  });
  const isPhone = test.info().project.name === 'phone';
  // On a touch screen the camera is offered too (`capture`): the selfie goes through that input.
  const selfie = page.getByLabel(
    `Your face, holding the document: ${isPhone ? 'take a photo' : 'choose a photo'}`,
  );
  if (isPhone) await expect(selfie).toHaveAttribute('capture', 'user');
  await selfie.setInputFiles({ name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: face });
  for (const label of ['Front of the document', 'Back of the document', 'Your face, holding the document'])
    await expect(page.getByRole('img', { name: `${label}, as chosen` })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Continue' }).click();

  // Step 3: the declaration, signed with the mouse.
  await expect(page.getByText('Step 3 of 4')).toBeVisible();
  await expect(page.getByText('Nova Elena Reyes')).toBeVisible();
  await drawSignature(page);
  await expect.poll(() => inkOnPad(page)).toBeGreaterThan(50);
  await expectNoSeriousA11yViolations(page);

  // Half-way: a reload keeps everything, because it is on the device.
  await expect
    .poll(() => draftOnDevice(page))
    .toMatchObject({
      step: 3,
      legal_name: 'Nova Elena Reyes',
      front_picture_id: `File front.jpg image/jpeg ${front.length}`,
      back_picture_id: `File back.png image/png ${back.length}`,
      face_picture_id: `File selfie.jpg image/jpeg ${face.length}`,
      signature: 'Blob image/png non-empty',
    });
  await page.reload();
  await expect(page.getByText('Step 3 of 4')).toBeVisible();
  await expect.poll(() => inkOnPad(page)).toBeGreaterThan(50);
  await page
    .getByRole('form', { name: 'Account validation' })
    .getByRole('button', { name: 'Back', exact: true })
    .click();
  for (const label of ['Front of the document', 'Back of the document', 'Your face, holding the document'])
    await expect(page.getByRole('img', { name: `${label}, as chosen` })).toBeVisible();
  await expect(page.getByLabel('Document number')).toHaveValue('C01X00T47');
  await expect(page.getByRole('radio', { name: /Passport/ })).toBeChecked();
  await page
    .getByRole('form', { name: 'Account validation' })
    .getByRole('button', { name: 'Back', exact: true })
    .click();
  await expect(page.getByLabel('Full legal name')).toHaveValue('Nova Elena Reyes');
  await expect(page.getByLabel('Address')).toHaveValue('Kastanienallee 12, 10435 Berlin');
  await expect(page.getByRole('radio', { name: 'Trans' })).toBeChecked();
  await expect(page.getByLabel('Birthday')).toHaveValue('1996-04-21');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();

  // Sent: step 4, and pending on the server.
  const sent = page.waitForResponse((r) => r.url().endsWith('/v1/profile/verification'));
  await page.getByRole('button', { name: 'Send for review' }).click();
  expect((await sent).status()).toBe(201);
  await expect(page.getByText('Step 4 of 4')).toBeVisible();
  await expect(page.getByText(m.pending)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  const profile = async () =>
    (await (await request.get('/v1/profile', { headers: nova.bearer })).json()).data;
  expect((await profile()).isVerified).toBe('pending');
  expect(await draftOnDevice(page)).toEqual({});
  await page.reload();
  await expect(page.getByText(m.pending)).toBeVisible();
  expect((await tusCreate(request, nova.bearer)).status()).toBe(403);

  // The operator approves from the command line while the server runs.
  const listed = await admin('verifications', 'list');
  expect(listed.join('\n')).toContain(`user ${nova.id} @${nova.username}`);
  expect(listed.join('\n')).toContain('"Nova Elena Reyes" as "Nova Reyes", DE');
  expect(await admin('verifications', 'approve', String(nova.id))).toEqual([
    `user ${nova.id}: verification approved`,
  ]);
  expect((await profile()).isVerified).toBe('approved');

  await page.reload();
  await expect(page.getByText(m.alreadyApproved)).toBeVisible();
  await page.goto(`/${nova.username}`);
  await expect(page.getByRole('link', { name: 'Settings' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Verify identity' })).toHaveCount(0);
  const after = await tusCreate(request, nova.bearer);
  expect(after.status()).toBe(201);
  const location = after.headers().location ?? '';
  expect(location).toMatch(/\/v1\/uploads\//);
  await request.delete(location, { headers: { ...nova.bearer, 'Tus-Resumable': '1.0.0' } });
});
