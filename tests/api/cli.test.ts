import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canManageCreator } from '../../server/auth/permissions';
import { hashToken } from '../../server/auth/tokens';
import { CliError, runCommand } from '../../server/cli';
import * as t from '../../server/db/schema';
import { createTestContext, insertUser, type TestContext } from './helpers';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const run = (...argv: string[]) => runCommand(ctx.database.db, argv);

async function pendingRequest() {
  const user = await insertUser(ctx, { verificationStatus: 'pending' });
  await ctx.database.db.insert(t.verificationRequests).values({
    userId: user.id,
    legalName: 'Jane Example',
    stageName: 'Janie',
    address: 'Main St 1',
    country: 'DE',
    gender: 't',
    dateOfBirth: '1990-01-01',
    age: 36,
    identification: 'passport',
    identificationId: 'X1',
    frontPicturePath: 'verification/x/front.jpg',
    backPicturePath: 'verification/x/back.jpg',
    facePicturePath: 'verification/x/face.jpg',
    signaturePath: 'verification/x/signature.jpg',
  });
  return user;
}

const statusOf = async (id: number) =>
  (await ctx.database.db.select().from(t.users).where(eq(t.users.id, id)))[0]?.verificationStatus;

describe('operator CLI', () => {
  it('lists pending verifications and approves or rejects them', async () => {
    const a = await pendingRequest();
    const b = await pendingRequest();
    const listed = await run('verifications', 'list');
    expect(listed.join('\n')).toContain(`user ${a.id} @${a.username}`);
    expect(listed.join('\n')).toContain(`user ${b.id}`);
    expect(await run('verifications', 'approve', String(a.id))).toEqual([
      `user ${a.id}: verification approved`,
    ]);
    await run('verifications', 'reject', String(b.id));
    expect(await statusOf(a.id)).toBe('approved');
    expect(await statusOf(b.id)).toBe('rejected');
    expect(await run('verifications', 'list')).toEqual(['no pending verification requests']);
    await expect(run('verifications', 'approve', String(a.id))).rejects.toThrow(CliError);
  });

  it('creates a studio, prints its key once and stores only the hash; makes a manager', async () => {
    const lines = await run('studio', 'create', 'Blue', 'Studio');
    const key = /join key \(shown only now\): (\S+)/.exec(lines.join('\n'))?.[1] ?? '';
    expect(key.length).toBeGreaterThan(20);
    const [studio] = await ctx.database.db.select().from(t.studios).where(eq(t.studios.name, 'Blue Studio'));
    expect(studio?.keyHash).toBe(hashToken(key));
    expect(studio?.keyHash).not.toBe(key);

    const manager = await insertUser(ctx);
    const member = await insertUser(ctx, { studioId: studio?.id, studioRole: 'member' });
    await run('studio', 'manager', String(manager.id), String(studio?.id));
    const [row] = await ctx.database.db.select().from(t.users).where(eq(t.users.id, manager.id));
    expect(row).toMatchObject({ studioId: studio?.id, studioRole: 'manager' });
    expect(await canManageCreator(ctx.database.db, row as typeof t.users.$inferSelect, member.id)).toBe(true);
    await expect(run('studio', 'manager', String(manager.id), '99999')).rejects.toThrow('no studio 99999');
  });

  it('sets a page from a file, served by GET /v1/page/{slug}', async () => {
    const file = path.join(ctx.config.dataDir, 'terms.html');
    await fs.writeFile(file, '<h1>Terms</h1>');
    await run('page', 'set', 'terms', file, 'Terms', 'of', 'use');
    let res = await ctx.app.inject({ method: 'GET', url: '/v1/page/terms' });
    expect(res.json()).toEqual({ data: { slug: 'terms', title: 'Terms of use', content: '<h1>Terms</h1>' } });
    await fs.writeFile(file, '<h1>Terms v2</h1>');
    await run('page', 'set', 'terms', file);
    res = await ctx.app.inject({ method: 'GET', url: '/v1/page/terms' });
    expect(res.json().data).toMatchObject({ title: 'Terms of use', content: '<h1>Terms v2</h1>' });
  });

  it('explains its usage for unknown commands and bad ids', async () => {
    await expect(run('nope')).rejects.toThrow(/usage: npm run admin/);
    await expect(run('verifications', 'approve', 'abc')).rejects.toThrow(/userId must be a number/);
    await expect(run('page', 'set', 'Bad Slug', '/dev/null')).rejects.toThrow(CliError);
  });
});
