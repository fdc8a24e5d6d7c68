// With a job queue, mail leaves through pg-boss: the request only enqueues, the worker talks SMTP.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLLING_INTERVAL_SECONDS } from '../../server/jobs/boss';
import { createDeliver, MAIL_QUEUE, type MailMessage, sendMail } from '../../server/mail/mailer';
import { createTestContext, type TestContext } from './helpers';
import { loginTokenIn, startSmtp } from './mail-helpers';

let ctx: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  smtp = await startSmtp();
  ctx = await createTestContext({ jobs: true, config: { smtpUrl: smtp.url } });
  const deliver = createDeliver(ctx.config);
  await ctx.jobs?.work<MailMessage>(MAIL_QUEUE, (message) => deliver(message));
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

describe('mail through the pg-boss queue', () => {
  it('delivers the verification mail from the worker, and its link logs in', async () => {
    const email = 'queued@example.test';
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/register',
      payload: {
        type: 'user',
        name: 'Queued',
        email,
        password: 'password1',
        password_confirmation: 'password1',
      },
    });
    expect(res.statusCode).toBe(201);
    await ctx.jobs?.idle(MAIL_QUEUE.name);
    const token = loginTokenIn(smtp.lastTo(email)?.raw ?? '');
    const login = await ctx.app.inject({ method: 'POST', url: '/v1/login/token', payload: { token } });
    expect(login.statusCode).toBe(200);
    expect(login.json().user.type).toBe('user');
  });

  it('sends five mails queued at once within two of an idle worker’s polling intervals', async () => {
    // A job sent from this process wakes its worker, which then asks for the next as soon as it is done.
    // Waiting out the interval before each would take four intervals at least (about 1 s against 10 s here).
    const queuedAt = performance.now();
    const to = Array.from({ length: 5 }, (_, i) => `burst-${i}@example.test`);
    for (const address of to)
      await sendMail(ctx, { to: address, subject: 'Burst', text: 'Hello', link: 'https://x.test/' });
    await ctx.jobs?.idle(MAIL_QUEUE.name);
    const took = performance.now() - queuedAt;
    for (const address of to) expect(smtp.lastTo(address), address).toBeDefined();
    expect(took).toBeLessThan(2 * POLLING_INTERVAL_SECONDS * 1000);
  });
});

describe('the .eml outbox', () => {
  it('writes a message file and logs one line with the link', async () => {
    const lines: string[] = [];
    const dataDir = ctx.config.dataDir;
    const deliver = createDeliver({ smtpUrl: undefined, dataDir, mailFrom: 'A <a@example.test>' }, (l) =>
      lines.push(l),
    );
    await deliver({
      to: 'b@example.test',
      subject: 'Hi',
      text: 'Go to https://x.test/login/abc',
      link: 'https://x.test/login/abc',
    });
    const files = await fs.readdir(path.join(dataDir, 'mail'));
    expect(files).toHaveLength(1);
    const eml = await fs.readFile(path.join(dataDir, 'mail', files[0] ?? ''), 'utf8');
    expect(eml).toMatch(/^From: A <a@example\.test>$/m);
    expect(eml).toContain('https://x.test/login/abc');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('https://x.test/login/abc');
  });
});
