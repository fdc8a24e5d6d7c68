import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canManageCreator } from '../../server/auth/permissions';
import { hashToken } from '../../server/auth/tokens';
import { answerCommand, CliError, parseCommand, runCommand, runOperatorCommand } from '../../server/cli';
import { openDatabase, pgliteLockFile } from '../../server/db/client';
import { lockDataDir } from '../../server/db/lock';
import * as t from '../../server/db/schema';
import { operatorSocketPath, startOperatorSocket } from '../../server/operator';
import { createTestContext, insertUser, type TestContext } from './helpers';

const exec = promisify(execFile);

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const run = (...argv: string[]) => runCommand(ctx, argv);

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

// PGlite's files belong to one process. While the server runs, `npm run admin` hands its command to the
// server over the operator socket; with no server, it opens the files itself under the lock the server takes.
describe('operator commands while the server runs', () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sc-op-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });
  /** A server as main.ts starts one: it holds the data directory's lock, and answers on the socket. */
  async function runningServer(dir: string) {
    const release = await lockDataDir(pgliteLockFile(dir), 'server');
    const socket = await startOperatorSocket(operatorSocketPath(dir), (command) =>
      answerCommand(ctx, command),
    );
    if (!socket) throw new Error('no socket');
    return {
      async stop() {
        await socket.close();
        await release();
      },
    };
  }
  const studioNamed = async (name: string) =>
    (await ctx.database.db.select().from(t.studios).where(eq(t.studios.name, name)))[0];

  it("runs them in the server, over a socket that only the server's account may open and that goes with it", async () => {
    const dir = await tempDir();
    const server = await runningServer(dir);
    const stat = await fs.stat(operatorSocketPath(dir));
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
    const config = { dataDir: dir, databaseUrl: undefined };

    const created = await runOperatorCommand(
      config,
      await parseCommand(['studio', 'create', 'Socket', 'Co']),
    );
    expect(created.via).toBe('socket');
    expect(created.lines[1]).toMatch(/^join key \(shown only now\): \S{20,}$/);
    expect(await studioNamed('Socket Co')).toBeDefined();

    const user = await pendingRequest();
    const approve = await parseCommand(['verifications', 'approve', String(user.id)]);
    expect((await runOperatorCommand(config, approve)).lines).toEqual([
      `user ${user.id}: verification approved`,
    ]);
    expect(await statusOf(user.id)).toBe('approved');
    // The server's refusal reaches the operator as the same message a direct run gives.
    await expect(runOperatorCommand(config, approve)).rejects.toThrow(
      new CliError(`user ${user.id} has no pending verification request`),
    );

    // A page's file is read where the operator typed the command.
    const file = path.join(dir, 'faq.html');
    await fs.writeFile(file, '<p>Socket FAQ</p>');
    await runOperatorCommand(config, await parseCommand(['page', 'set', 'faq', file]));
    const res = await ctx.app.inject({ method: 'GET', url: '/v1/page/faq' });
    expect(res.json().data.content).toBe('<p>Socket FAQ</p>');

    await server.stop();
    await expect(fs.stat(operatorSocketPath(dir))).rejects.toThrow(/ENOENT/);
  });

  it('refuses what is not a command', async () => {
    expect(await answerCommand(ctx, { kind: 'drop-everything' })).toMatchObject({ ok: false });
    expect(
      await answerCommand(ctx, { kind: 'verification-review', userId: -1, decision: 'approved' }),
    ).toMatchObject({ ok: false });
  });

  it('`npm run admin` itself goes to the running server', async () => {
    const dir = await tempDir();
    const server = await runningServer(dir);
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir };
      delete env.DATABASE_URL;
      const { stdout } = await exec(
        process.execPath,
        ['--import', 'tsx', 'server/cli.ts', 'studio', 'create', 'Piped'],
        {
          cwd: path.resolve(import.meta.dirname, '../..'),
          env,
        },
      );
      expect(stdout).toMatch(/studio \d+ "Piped" created\njoin key \(shown only now\): \S+/);
      expect(await studioNamed('Piped')).toBeDefined();
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('without a server it opens the database itself, past what a crashed server left behind', async () => {
    const dir = await tempDir();
    // A crashed server's leftovers: a socket file nobody listens on, and a lock whose process is gone.
    await fs.writeFile(operatorSocketPath(dir), '');
    const dead = await exec(process.execPath, ['-e', 'console.log(process.pid)']);
    await fs.writeFile(
      pgliteLockFile(dir),
      JSON.stringify({ pid: Number(dead.stdout.trim()), role: 'server', since: new Date().toISOString() }),
    );
    const config = { dataDir: dir, databaseUrl: undefined };
    const result = await runOperatorCommand(config, await parseCommand(['studio', 'create', 'Direct']));
    expect(result.via).toBe('database');
    await expect(fs.stat(pgliteLockFile(dir))).rejects.toThrow(/ENOENT/);
    const database = await openDatabase(config);
    try {
      const rows = await database.db.select().from(t.studios).where(eq(t.studios.name, 'Direct'));
      expect(rows).toHaveLength(1);
    } finally {
      await database.close();
    }
  }, 240_000);

  it('never opens files another process holds: it waits, then says who holds them', async () => {
    const dir = await tempDir();
    const release = await lockDataDir(pgliteLockFile(dir), 'server');
    try {
      await expect(
        runOperatorCommand(
          { dataDir: dir, databaseUrl: undefined },
          { kind: 'verifications-list' },
          { waitMs: 600 },
        ),
      ).rejects.toThrow(new RegExp(`in use by the server \\(pid ${process.pid}\\)`));
      // And the other way round: a server that starts while a command has the files waits for it.
      const taken = lockDataDir(pgliteLockFile(dir), 'server', { waitMs: 10_000 });
      let done = false;
      void taken.then(() => {
        done = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(done).toBe(false);
      await release();
      const releaseSecond = await taken;
      await releaseSecond();
    } finally {
      await release();
    }
  });
});
