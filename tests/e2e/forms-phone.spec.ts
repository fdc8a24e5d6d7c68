// Issue 33's rough edges of the forms, as a picky person meets them on a phone (the same centred column at
// every width, so the phone project only).
import { expect, type Page, test } from 'playwright/test';
import { messages, REPORT_MESSAGE_MAX } from '../../src/contract';
import { current } from './ads';
import { memberOn } from './members';
import { DEMO_USER } from './sign-in';

const shot = async (page: Page, name: string) => {
  if (process.env.E2E_SHOTS_DIR)
    await page.screenshot({ path: `${process.env.E2E_SHOTS_DIR}/forms-${name}.png`, fullPage: true });
};

/** What the stepper tells a screen reader of where it stands ('Step 2 of 4'). */
const stepText = (page: Page) => page.locator('.auth-progress p');
/** The segments of the progress bar, and how many are filled. */
const bar = async (page: Page) => {
  const segments = page.locator('.auth-progress-bar li');
  return { all: await segments.count(), done: await segments.and(page.locator('.is-done')).count() };
};

test.describe('sign-up steps', () => {
  test('/register and /register/model count the same 4 steps for a creator, and give each the same number', async ({
    page,
  }) => {
    await page.goto('/register');
    // No type yet: the length of the flow is not known, so no total is given.
    await expect(stepText(page)).toHaveText('Step 1');
    await page.getByRole('radio', { name: messages.auth.postVideos }).check();
    await expect(stepText(page)).toHaveText('Step 1 of 4');
    expect(await bar(page)).toEqual({ all: 4, done: 1 });
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Choose your username' })).toBeVisible();
    await expect(stepText(page)).toHaveText('Step 2 of 4');
    const viaRegister = await bar(page);

    await page.goto('/register/model');
    await expect(page.getByRole('heading', { name: 'Choose your username' })).toBeVisible();
    await expect(stepText(page)).toHaveText('Step 2 of 4');
    expect(await bar(page)).toEqual(viaRegister);
    expect(viaRegister).toEqual({ all: 4, done: 2 });
  });

  test('a viewer counts 2 steps either way', async ({ page }) => {
    await page.goto('/register');
    await page.getByRole('radio', { name: messages.auth.watchVideos }).check();
    await expect(stepText(page)).toHaveText('Step 1 of 2');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await expect(stepText(page)).toHaveText('Step 2 of 2');

    await page.goto('/register/user');
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await expect(stepText(page)).toHaveText('Step 2 of 2');
    expect(await bar(page)).toEqual({ all: 2, done: 2 });
  });
});

test('an empty sign-up says "Please fill all the fields." once, for the form, and marks each empty field', async ({
  page,
}) => {
  await page.goto('/register/user');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('alert').filter({ hasText: messages.auth.fillAllFields })).toHaveText(
    messages.auth.fillAllFields,
  );
  await expect(page.getByText(messages.auth.fillAllFields, { exact: true })).toHaveCount(1);
  for (const label of ['Display name', 'Email', 'Password', 'Repeat password'])
    await expect(page.getByLabel(label, { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Display name')).toHaveAccessibleDescription(messages.auth.fillAllFields);
  await shot(page, 'register-empty');
});

test('the report box takes no more than the 2000 characters its counter allows', async ({ page }) => {
  await page.goto('/');
  await current(page).getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('button', { name: 'Report' }).click();
  const box = page.getByLabel('Description');
  await box.fill('x'.repeat(REPORT_MESSAGE_MAX + 100));
  await expect(box).toHaveValue('x'.repeat(REPORT_MESSAGE_MAX));
  // Typing on at the limit adds nothing either.
  await box.press('End');
  await box.pressSequentially('yz');
  await expect(box).toHaveValue('x'.repeat(REPORT_MESSAGE_MAX));
  await expect(page.getByText(`${REPORT_MESSAGE_MAX}/${REPORT_MESSAGE_MAX}`)).toBeVisible();
});

test.describe('signed in', () => {
  test('/support fills in the account’s email, which can still be changed', async ({ page, request }) => {
    await memberOn(page, request, DEMO_USER);
    await page.goto('/support');
    const email = page.getByLabel('Email');
    await expect(email).toHaveValue(DEMO_USER);
    await email.fill('another.address@example.com');
    await expect(email).toHaveValue('another.address@example.com');
    await shot(page, 'support');
  });
});
