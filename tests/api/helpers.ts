// Builds the real app on a real database for one test file: in-memory PGlite by default, or a fresh
// database on the PostgreSQL server of DATABASE_URL (dropped afterwards), so both run the same suite.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, RouteOptions } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../server/app';
import type { HashQueue } from '../../server/auth/hash-queue';
import { type Config, loadConfig } from '../../server/config';
import { type Database, type Db, openDatabase } from '../../server/db/client';
import * as t from '../../server/db/schema';
import type { AppDeps } from '../../server/deps';
import { type Jobs, startJobs } from '../../server/jobs/boss';
import { LocalStorage } from '../../server/media/storage';
import { pooledPglite } from './pglite-pool';

export interface TestContext extends AppDeps {
  app: FastifyInstance;
  /** On local disk, so that tests can look at the files themselves. */
  storage: LocalStorage;
  database: Database;
  jobs?: Jobs;
  close(): Promise<void>;
}

/** Where global-setup.ts left the suite's migrated database: a PGlite tarball's path, a template's name. */
export const PGLITE_IMAGE_VAR = 'SHORTCAMS_TEST_PGLITE_IMAGE';
export const PG_TEMPLATE_VAR = 'SHORTCAMS_TEST_PG_TEMPLATE';

/** An empty database on that server, or a copy of `template` (a migrated one: global-setup.ts). */
export async function createPostgresDatabase(adminUrl: string, template?: string) {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** For tests that send thousands of requests from one address: every route does its work instead of a 429. */
export const NO_RATE_LIMITS = {
  authRateLimit: 1_000_000,
  contactRateLimit: 1_000_000,
  reportRateLimit: 1_000_000,
  loginFailureLimit: 1_000_000,
  checkUsernameRateLimit: 1_000_000,
  guestsPerAddress: 1_000_000,
  guestActionsPerAddress: 1_000_000,
} as const satisfies Partial<Config>;

/**
 * Why an answer breaks the failure contract (never a 5xx; every 4xx JSON `{message}` with a JSON content
 * type), or undefined when it keeps it.
 */
export function errorContractBreach(res: {
  statusCode: number;
  headers: Record<string, unknown>;
  json(): unknown;
}): string | undefined {
  if (res.statusCode >= 500) return 'server error';
  if (res.statusCode < 400) return undefined;
  if (!String(res.headers['content-type']).startsWith('application/json')) return 'not JSON';
  try {
    const body = res.json() as { message?: unknown } | null;
    return typeof body?.message === 'string' ? undefined : 'no message';
  } catch {
    return 'unparsable JSON';
  }
}

export async function createTestContext(
  opts: {
    jobs?: boolean;
    config?: Partial<Config>;
    onRoute?: (route: RouteOptions) => void;
    loginQueue?: HashQueue;
  } = {},
) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-test-'));
  // Started from the suite's migrated database where global-setup.ts made one.
  const pgDb = process.env.DATABASE_URL
    ? await createPostgresDatabase(process.env.DATABASE_URL, process.env[PG_TEMPLATE_VAR])
    : undefined;
  const imageFile = pgDb ? undefined : process.env[PGLITE_IMAGE_VAR];
  const config: Config = {
    ...loadConfig({}),
    dataDir,
    databaseUrl: pgDb?.url ?? 'memory://',
    distDir: path.join(dataDir, 'no-dist'),
    seedDemo: false,
    logLevel: 'silent',
    // Tests write rows behind the API's back and read the home feed at once: page 1 is built per request
    // (the cache path itself still runs). videos.test.ts checks the cache with its default time.
    feedCacheMs: 0,
    ...opts.config,
  };
  // In memory: the worker's PGlite, emptied after its last file (pglite-pool.ts).
  const database =
    imageFile && config.databaseUrl === 'memory://'
      ? await pooledPglite(async () => new Blob([await fs.readFile(imageFile)]))
      : await openDatabase(config);
  // Nothing left to apply on a migrated copy; a fresh database gets them all.
  await database.migrate();
  const storage = new LocalStorage(dataDir, config.mediaPublicUrl);
  const jobs = opts.jobs ? await startJobs(database) : undefined;
  const app = await buildApp(
    { config, database, storage, jobs, loginQueue: opts.loginQueue },
    { logger: false, ...(opts.onRoute ? { onRoute: opts.onRoute } : {}) },
  );
  await app.ready();
  const ctx: TestContext = {
    app,
    config,
    database,
    storage,
    jobs,
    async close() {
      await app.close();
      await jobs?.stop();
      await database.close();
      await pgDb?.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  return ctx;
}

let counter = 0;
/** A creator with sensible defaults; tests override only what they are about. */
export async function insertUser(ctx: TestContext, values: Partial<typeof t.users.$inferInsert> = {}) {
  const n = ++counter;
  const username = values.username ?? `creator_${n}_${randomBytes(3).toString('hex')}`;
  const [user] = await ctx.database.db
    .insert(t.users)
    .values({
      type: 'model',
      name: `Creator ${n}`,
      username,
      slug: username,
      email: `${username}@example.test`,
      passwordHash: 'not-a-real-hash',
      verificationStatus: 'approved',
      ...values,
    })
    .returning();
  if (!user) throw new Error('insert failed');
  return user;
}

export async function insertVideo(
  ctx: TestContext,
  values: Partial<typeof t.videos.$inferInsert> & { userId: number },
) {
  const [video] = await ctx.database.db
    .insert(t.videos)
    .values({
      slug: 'clip',
      title: 'Clip',
      status: 'approved',
      durationSeconds: 8,
      playlistPath: 'videos/x/master.m3u8',
      thumbnailPath: 'videos/x/thumb.jpg',
      ...values,
    })
    .returning();
  if (!video) throw new Error('insert failed');
  return video;
}

/**
 * An operator's approval of an upload waiting for review (UPLOAD_REVIEW=before, the default), as the CLI
 * gives it: what an upload needs before it shows in any list.
 */
export async function approveUpload(
  ctx: Pick<TestContext, 'config' | 'database' | 'storage' | 'jobs'>,
  id: number,
) {
  const { runCommand } = await import('../../server/cli');
  await runCommand(ctx, ['videos', 'approve', String(id)]);
}

/**
 * The video approved with its whole ladder: approved means playable from the lowest rendition, and the row
 * keeps a media heartbeat until the MP4 and the higher renditions are published (server/media/pipeline/).
 */
export async function waitForLadder(db: Db, id: number, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await db.select().from(t.videos).where(eq(t.videos.id, id));
    if (row?.status === 'error') throw new Error(`video ${id} failed: ${row.statusReason}`);
    if (row?.status === 'approved' && row.mediaHeartbeatAt === null) return row;
    if (Date.now() > until) throw new Error(`video ${id} still ${row?.status}, ladder unfinished`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
