// Every message of spec §5 'Password change' and 'Profile edit' (and their §8 outcomes), each triggered the way
// a person would trigger it, and found word for word on screen. One row per message; rows that change the
// demo account put it back through the API with the page's own token.
import { type APIRequestContext, type BrowserContext, expect, type Page, test } from 'playwright/test';
import { messages } from '../../src/contract';
import { DEMO_PASSWORD, demo, type Member, memberOn, ownProfile, setProfile, toastsSeen } from './members';

// axe-core scans and the feed behind the preferences sheet are heavy for a shared 2-core machine.
test.describe.configure({ timeout: 180_000 });

interface Row {
  name: string;
  account: string;
  path: string;
  /** Types and clicks; `context` to take the network away. */
  act: (page: Page, context: BrowserContext) => Promise<void>;
  /**
   * The exact text, and where: under a field (its label), the form's own message, or a toast. A field with
   * `where: 'form'`: a message about the whole form, shown once in the form's alert, which the field points to.
   */
  expected: { text: string; field?: string; where?: 'form' | 'toast' };
  /** Checks what else the person should see, e.g. that what they typed is still there. */
  after?: (page: Page) => Promise<void>;
  /** Puts back what a successful row changed. */
  restore?: (request: APIRequestContext, member: Member, before: Record<string, unknown>) => Promise<unknown>;
}

const save = (page: Page, name = 'Save') => page.getByRole('button', { name }).click();
const offline = async (page: Page, context: BrowserContext, button: string) => {
  await context.setOffline(true);
  await save(page, button);
};

const on = (account: string, path: string, rows: Omit<Row, 'account' | 'path'>[]): Row[] =>
  rows.map((row) => ({ ...row, account, path }));

const passwordRows = on(demo.pendingModel, '/account/settings/password', [
  {
    name: 'both empty',
    act: (page) => save(page, 'Change password'),
    expected: { text: 'All fields are required.', field: 'New password', where: 'form' },
  },
  {
    name: 'the repeat left empty',
    act: async (page) => {
      await page.getByLabel('New password', { exact: true }).fill('long-enough-1');
      await save(page, 'Change password');
    },
    expected: { text: 'All fields are required.', field: 'Repeat new password', where: 'form' },
  },
  {
    name: 'different passwords',
    act: async (page) => {
      await page.getByLabel('New password', { exact: true }).fill('long-enough-1');
      await page.getByLabel('Repeat new password').fill('long-enough-2');
      await save(page, 'Change password');
    },
    expected: { text: 'Passwords must match', field: 'Repeat new password' },
  },
  {
    name: 'too short',
    act: async (page) => {
      await page.getByLabel('New password', { exact: true }).fill('short');
      await page.getByLabel('Repeat new password').fill('short');
      await save(page, 'Change password');
    },
    expected: { text: 'New password must be at least 8 characters long.', field: 'New password' },
  },
  {
    name: 'no network',
    act: async (page, context) => {
      await page.getByLabel('New password', { exact: true }).fill('long-enough-1');
      await page.getByLabel('Repeat new password').fill('long-enough-1');
      await offline(page, context, 'Change password');
    },
    expected: { text: 'Something went wrong, try again later.', where: 'form' },
  },
  {
    name: 'the current password wrong',
    act: async (page) => {
      await page.getByLabel('Current password').fill('not-the-password');
      await page.getByLabel('New password', { exact: true }).fill('long-enough-1');
      await page.getByLabel('Repeat new password').fill('long-enough-1');
      await save(page, 'Change password');
    },
    expected: { text: messages.profile.currentPasswordWrong, field: 'Current password' },
  },
  {
    name: 'changed',
    act: async (page) => {
      await page.getByLabel('Current password').fill(DEMO_PASSWORD);
      await page.getByLabel('New password', { exact: true }).fill('long-enough-1');
      await page.getByLabel('Repeat new password').fill('long-enough-1');
      await save(page, 'Change password');
    },
    expected: { text: 'Password changed successfully', where: 'toast' },
    restore: (request, member) =>
      setProfile(request, member, {
        current_password: 'long-enough-1',
        password: DEMO_PASSWORD,
        password_confirmation: DEMO_PASSWORD,
      }),
  },
]);

const details =
  (label: string, value: string): Row['act'] =>
  async (page) => {
    await page.getByLabel(label).fill(value);
    await save(page);
  };
const restoreDetails: Row['restore'] = (request, member, before) =>
  setProfile(request, member, {
    name: before.name,
    username: before.username,
    description: before.description,
    phone_number: before.phone_number,
  });

const detailsRows = on(demo.pendingModel, '/account/settings/details', [
  {
    name: 'no name',
    act: details('Display name', ''),
    expected: { text: 'Please enter a name.', field: 'Display name' },
  },
  {
    name: 'no username',
    act: details('Username', ''),
    expected: { text: 'Please enter a username.', field: 'Username' },
  },
  {
    name: 'a username with spaces',
    act: details('Username', 'echo lane'),
    expected: {
      text: 'Invalid username. Only letters, numbers, hyphens, and underscores allowed.',
      field: 'Username',
    },
  },
  {
    name: "another creator's username (the server says)",
    act: details('Username', 'luna_vega'),
    expected: { text: 'Username is taken.', field: 'Username' },
  },
  {
    name: 'a description of 201 characters',
    act: details('Description', 'x'.repeat(201)),
    expected: { text: 'Description cannot exceed 200 characters.', field: 'Description' },
  },
  {
    name: 'a phone of 3 characters',
    act: details('Phone number', '123'),
    expected: { text: 'Phone number must be longer than 3 characters.', field: 'Phone number' },
  },
  {
    name: 'no network',
    act: async (page, context) => {
      await page.getByLabel('Display name').fill('Echo Offline');
      await offline(page, context, 'Save');
    },
    expected: { text: 'Something went wrong, try again later.', where: 'form' },
    after: (page) => expect(page.getByLabel('Display name')).toHaveValue('Echo Offline'),
  },
  {
    name: 'saved',
    act: details('Description', 'x'.repeat(200)),
    expected: { text: 'User details updated', where: 'toast' },
    restore: restoreDetails,
  },
]);

const otherRows: Row[] = [
  {
    name: 'sex changed',
    account: demo.viewer,
    path: '/account/settings/gender',
    act: async (page) => {
      const group = page.getByRole('group', { name: 'Sex' });
      const male = await group.getByRole('radio', { name: 'Male' }).isChecked();
      await group.getByText(male ? 'Trans' : 'Male').click();
      await save(page);
    },
    expected: { text: 'Sex changed', where: 'toast' },
    restore: (request, member, before) => setProfile(request, member, { gender: before.gender }),
  },
  {
    name: 'colour saved',
    account: demo.channel,
    path: '/account/settings/channel-color',
    act: async (page) => {
      await page.getByTitle('Amber').click();
      await save(page, 'Save color');
    },
    expected: { text: 'Profile image updated successfully', where: 'toast' },
    restore: (request, member, before) => setProfile(request, member, { color: before.color }),
  },
  {
    name: 'colour with no network',
    account: demo.channel,
    path: '/account/settings/channel-color',
    act: async (page, context) => {
      await page.getByTitle('Amber').click();
      await offline(page, context, 'Save color');
    },
    expected: { text: 'Error changing the color, try again later', where: 'form' },
    after: (page) => expect(page.getByRole('radio', { name: 'Amber' })).toBeChecked(),
  },
];

test.describe('settings messages (spec §5, §8)', () => {
  for (const [group, rows] of [
    ['password change', passwordRows],
    ['profile edit', detailsRows],
    ['sex and colour', otherRows],
  ] as const) {
    for (const row of rows) {
      test(`${group}: ${row.name} → "${row.expected.text}"`, async ({ page, context, request }) => {
        const member = await memberOn(page, request, row.account);
        const before = await ownProfile(request, member);
        await page.goto(row.path);
        await expect(page.locator('form')).toBeVisible();
        try {
          await row.act(page, context);
          const { text, field, where } = row.expected;
          if (field) {
            const input = page.getByLabel(field, { exact: true });
            await expect(input).toHaveAttribute('aria-invalid', 'true');
            const describedBy = (await input.getAttribute('aria-describedby')) ?? '';
            const ids = describedBy.split(' ').filter((id) => id.endsWith('-error'));
            expect(ids).toHaveLength(1);
            await expect(page.locator(`[id="${ids[0]}"]`)).toHaveText(text);
            // Said once: under the field, or (a message about the whole form) in the form's alert only.
            await expect(page.getByText(text, { exact: true })).toHaveCount(1);
            if (where === 'form') await expect(page.locator('.form-error')).toHaveText(text);
          } else if (where === 'form') {
            await expect(page.locator('.form-error')).toHaveText(text);
          } else {
            await expect.poll(() => toastsSeen(page)).toContain(text);
          }
          await row.after?.(page);
        } finally {
          await context.setOffline(false);
          if (row.restore) await row.restore(request, member, before);
        }
      });
    }
  }
});
