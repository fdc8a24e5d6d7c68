// Account takeover paths (issue 32, finding 5): a stolen token cannot change the password without the current
// one, a password change voids every link mailed before it, and a mailbox gets only so many links.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../server/auth/password';
import * as t from '../../server/db/schema';
import { messages } from '../../src/contract';
import { createTestContext, insertUser, NO_RATE_LIMITS, type TestContext } from './helpers';
import { loginTokenIn, startSmtp } from './mail-helpers';

let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await createTestContext({ config: { ...NO_RATE_LIMITS, smtpUrl: smtp.url, mailsPerInbox: 5 } });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const post = (url: string, payload: object, token?: string) =>
  ctx.app.inject({
    method: 'POST',
    url,
    payload,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

async function member(password = 'the old password') {
  const user = await insertUser(ctx, { type: 'user', passwordHash: await hashPassword(password) });
  const login = await post('/v1/login', { email: user.email, password });
  return { user, token: login.json().access_token as string };
}

const mailsTo = (address: string) => smtp.received.filter((m) => m.to.includes(address));
const waitForMails = async (address: string, n: number) => {
  for (let i = 0; i < 100 && mailsTo(address).length < n; i++) await new Promise((r) => setTimeout(r, 30));
  return mailsTo(address);
};

describe('account takeover paths', () => {
  it('a password reset link opens a session that may set the password without the old one, once', async () => {
    const { user } = await member();
    expect((await post('/v1/forgot-password', { email: user.email })).statusCode).toBe(200);
    const [mail] = await waitForMails(user.email, 1);
    const signedIn = await post('/v1/login/token', { token: loginTokenIn(mail?.raw ?? '') });
    expect(signedIn.json().link).toBe('password_reset');
    const token = signedIn.json().access_token as string;
    const profile = await ctx.app.inject({
      method: 'GET',
      url: '/v1/profile',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(profile.json().data.passwordResetSession).toBe(true);
    const set = await post(
      '/v1/profile',
      { password: 'the new password', password_confirmation: 'the new password' },
      token,
    );
    expect(set.statusCode).toBe(200);
    expect(set.json().user.passwordResetSession).toBe(false);
    // The allowance went with that change: the next one asks for the current password again.
    const again = await post(
      '/v1/profile',
      { password: 'a third password', password_confirmation: 'a third password' },
      token,
    );
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.current_password).toEqual([messages.profile.currentPasswordRequired]);
  });

  it('voids every link mailed before a password change', async () => {
    const { user, token } = await member();
    await post('/v1/forgot-password', { email: user.email });
    const [mail] = await waitForMails(user.email, 1);
    const link = loginTokenIn(mail?.raw ?? '');
    const changed = await post(
      '/v1/profile',
      {
        current_password: 'the old password',
        password: 'changed password',
        password_confirmation: 'changed password',
      },
      token,
    );
    expect(changed.statusCode).toBe(200);
    // The link in the mailbox from before signs nobody in now (it did before).
    const late = await post('/v1/login/token', { token: link });
    expect(late.statusCode).toBe(401);
    const rows = await ctx.database.db.select().from(t.userTokens).where(eq(t.userTokens.userId, user.id));
    expect(rows.every((r) => r.usedAt !== null)).toBe(true);
  });

  it('sends one mailbox at most MAILS_PER_INBOX reset and verification mails an hour, answering the same', async () => {
    const { user } = await member();
    const answers = new Set<string>();
    for (let i = 0; i < 40; i++) answers.add((await post('/v1/forgot-password', { email: user.email })).body);
    expect([...answers]).toEqual([JSON.stringify({ message: messages.auth.recoverySent })]);
    await new Promise((r) => setTimeout(r, 300));
    expect(await waitForMails(user.email, 5)).toHaveLength(5);
  });
});
