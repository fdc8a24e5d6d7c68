// Spec §5 and §8, table-driven: every message of sign-up, sign-in and recovery, triggered the way a person
// would (or the network would), and found word for word on screen.
import { expect, type Page, test } from 'playwright/test';
import { messages } from '../../src/contract/messages';
import { unique } from './mail';
import { DEMO_USER } from './sign-in';

const m = messages.auth;

interface Final {
  name?: string;
  email?: string;
  password?: string;
  password_confirmation?: string;
  phone?: string;
  terms?: boolean;
}

const complete = (): Required<Final> => ({
  name: 'Message Tester',
  email: unique('msg').email,
  password: 'long-enough-1',
  password_confirmation: 'long-enough-1',
  phone: '+1 555 0100',
  terms: true,
});

/** /register/user, or /register/model through a free username and 'Male', to the last step. */
async function toFinalStep(page: Page, type: 'user' | 'model') {
  await page.goto(`/register/${type}`);
  if (type === 'model') {
    await page.getByLabel('Username').fill(unique('msg').username);
    await expect(page.getByLabel('Username')).toHaveAccessibleDescription(m.usernameAvailable);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('radio', { name: 'Male' }).check();
    await page.getByRole('button', { name: 'Continue' }).click();
  }
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
}

async function submitFinal(page: Page, type: 'user' | 'model', values: Final) {
  await toFinalStep(page, type);
  await page.getByLabel('Display name').fill(values.name ?? '');
  if (type === 'model') {
    await page.getByLabel('Country').selectOption('FR');
    await page.getByLabel('Phone number').fill(values.phone ?? '');
    if (values.terms) await page.getByLabel(/I agree to the/).check();
  }
  await page.getByLabel('Email').fill(values.email ?? '');
  await page.getByLabel('Password', { exact: true }).fill(values.password ?? '');
  await page.getByLabel('Repeat password').fill(values.password_confirmation ?? '');
  await page.getByRole('button', { name: 'Create account' }).click();
}

async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function recover(page: Page, email: string) {
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send link' }).click();
}

/** The network gives no answer to this call. */
const offline = (page: Page, path: string) =>
  page.route(`**${path}`, (route) => route.abort('internetdisconnected'));

const rows: { screen: string; when: string; message: string; run: (page: Page) => Promise<void> }[] = [
  // Sign-up: type and sex steps (the contract's words for a choice not made).
  {
    screen: 'register',
    when: 'Continue without a type',
    message: m.invalidType,
    run: async (page) => {
      await page.goto('/register');
      await page.getByRole('button', { name: 'Continue' }).click();
    },
  },
  {
    screen: 'register',
    when: 'Continue without Male or Trans',
    message: m.invalidGender,
    run: async (page) => {
      await page.goto('/register/model');
      await page.getByLabel('Username').fill(unique('msg').username);
      await expect(page.getByLabel('Username')).toHaveAccessibleDescription(m.usernameAvailable);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('button', { name: 'Continue' }).click();
    },
  },
  // Sign-up: username step (spec §5 'Username', §8).
  {
    screen: 'register',
    when: 'Continue with no username',
    message: m.usernameRequired,
    run: async (page) => {
      await page.goto('/register/model');
      await page.getByRole('button', { name: 'Continue' }).click();
    },
  },
  {
    screen: 'register',
    when: 'a username with a space and a !',
    message: m.usernameInvalid,
    run: async (page) => {
      await page.goto('/register/model');
      await page.getByLabel('Username').fill('bad name!');
    },
  },
  {
    screen: 'register',
    when: 'a demo creator’s username',
    message: m.usernameTaken,
    run: async (page) => {
      await page.goto('/register/model');
      await page.getByLabel('Username').fill('luna_vega');
    },
  },
  {
    screen: 'register',
    when: 'the availability check fails',
    message: m.usernameCheckFailed,
    run: async (page) => {
      await offline(page, '/v1/check-username');
      await page.goto('/register/model');
      await page.getByLabel('Username').fill(unique('msg').username);
    },
  },
  // Sign-up: last step (spec §5 'Registration final step').
  {
    screen: 'register',
    when: 'everything empty',
    message: m.fillAllFields,
    run: (page) => submitFinal(page, 'user', {}),
  },
  {
    screen: 'register',
    when: 'an email without @',
    message: m.invalidEmail,
    run: (page) => submitFinal(page, 'user', { ...complete(), email: 'not-an-email' }),
  },
  {
    screen: 'register',
    when: 'two different passwords',
    message: m.passwordsDoNotMatch,
    run: (page) => submitFinal(page, 'user', { ...complete(), password_confirmation: 'long-enough-2' }),
  },
  {
    screen: 'register',
    when: 'a 5-character password',
    message: m.passwordTooShort,
    run: (page) =>
      submitFinal(page, 'user', { ...complete(), password: 'short', password_confirmation: 'short' }),
  },
  {
    screen: 'register',
    when: 'a creator without a phone',
    message: m.phoneRequired,
    run: (page) => submitFinal(page, 'model', { ...complete(), phone: '' }),
  },
  {
    screen: 'register',
    when: 'a creator without the terms',
    message: m.termsRequired,
    run: (page) => submitFinal(page, 'model', { ...complete(), terms: false }),
  },
  {
    screen: 'register',
    when: 'a demo account’s email',
    message: m.emailTaken,
    run: (page) => submitFinal(page, 'user', { ...complete(), email: DEMO_USER }),
  },
  {
    screen: 'register',
    when: 'the sign-up gets no answer',
    message: m.registerNetwork,
    run: async (page) => {
      await offline(page, '/v1/register');
      await submitFinal(page, 'user', complete());
    },
  },
  // Sign-in (spec §5 'Login', §8).
  {
    screen: 'login',
    when: 'nothing typed',
    message: m.loginFillAll,
    run: (page) => logIn(page, '', ''),
  },
  {
    screen: 'login',
    when: 'a space inside the email',
    message: m.loginEmailSpaces,
    run: (page) => logIn(page, 'sam viewer@demo.test', 'demo-password'),
  },
  {
    screen: 'login',
    when: 'a wrong password (the server’s words)',
    message: m.invalidCredentials,
    run: (page) => logIn(page, DEMO_USER, 'wrong-password'),
  },
  {
    screen: 'login',
    when: 'the sign-in gets no answer',
    message: m.invalidCredentials,
    run: async (page) => {
      await offline(page, '/v1/login');
      await logIn(page, DEMO_USER, 'demo-password');
    },
  },
  // Recovery (spec §5 'Password recovery', §8).
  {
    screen: 'recovery',
    when: 'no email',
    message: m.recoveryEmailRequired,
    run: (page) => recover(page, ''),
  },
  {
    screen: 'recovery',
    when: 'a malformed email',
    message: m.invalidEmail,
    run: (page) => recover(page, 'nope'),
  },
  {
    screen: 'recovery',
    when: 'an address sent',
    message: m.recoverySent,
    run: (page) => recover(page, DEMO_USER),
  },
  {
    screen: 'recovery',
    when: 'the request gets no answer',
    message: m.recoveryFailed,
    run: async (page) => {
      await offline(page, '/v1/forgot-password');
      await recover(page, DEMO_USER);
    },
  },
  {
    screen: 'recovery',
    when: 'the server fails',
    message: m.recoveryFailed,
    run: async (page) => {
      await page.route('**/v1/forgot-password', (route) =>
        route.fulfill({ status: 503, json: { message: 'Service Unavailable' } }),
      );
      await recover(page, DEMO_USER);
    },
  },
];

test.describe('spec §5 messages of sign-up, sign-in and recovery', () => {
  for (const row of rows) {
    test(`${row.screen}: ${row.when} → '${row.message}'`, async ({ page }) => {
      await row.run(page);
      await expect(page.getByText(row.message, { exact: true }).first()).toBeVisible();
    });
  }
});
