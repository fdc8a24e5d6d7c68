import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { lockDataDir } from './lock';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** The handle a `db.transaction` callback gets. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** What pg-boss needs from a database it does not own a connection pool for. */
export interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface Database extends SqlExecutor {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** For pg-boss: PostgreSQL gets its own pool from the connection string, PGlite shares this handle. */
  connectionString: string | undefined;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL's connection pool as /metrics shows it; absent for PGlite (one connection in process). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /**
   * PGlite only (server/admin/backup.ts): the data directory as a tarball, and what `read` found in
   * the very same state. Both happen inside one transaction, which holds PGlite's only connection: no other
   * statement runs between the two, nor while the files are read.
   */
  dumpPglite?<T>(read: (sql: SqlExecutor) => Promise<T>): Promise<{ tarball: Blob; read: T }>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Any fixed number works; it only has to be the same on every API node. */
const MIGRATION_LOCK_ID = 724_000_001;

/** pg_trgm backs typo-tolerant search; PostgreSQL ships it as a contrib extension, PGlite as a bundle. */
export const pgliteExtensions = { pg_trgm };

/** The PGlite files of a data directory (no DATABASE_URL). */
export const pgliteDir = (dataDir: string) => path.join(dataDir, 'pgdata');
/** Held by the one process that has the PGlite files open (server/db/lock.ts). */
export const pgliteLockFile = (dataDir: string) => `${pgliteDir(dataDir)}.lock`;

/**
 * `databaseUrl` undefined: a PGlite database in `dataDir/pgdata`, opened by one process at a time (`lock`
 * says who is asking and how long to wait for the holder: DataDirBusyError after that); `memory://`: PGlite
 * in memory, empty or started from `image` (a data directory's tarball, as `dumpPglite` makes); otherwise a
 * PostgreSQL connection string.
 */
export async function openDatabase(opts: {
  databaseUrl?: string | undefined;
  dataDir: string;
  lock?: { role: string; waitMs?: number };
  image?: Blob | undefined;
}): Promise<Database> {
  const url = opts.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) return openPostgres(url);
  if (url && url !== 'memory://') throw new Error('DATABASE_URL must be postgres://… or memory://');
  if (url) return openPglite(undefined, async () => {}, opts.image);
  const dir = pgliteDir(opts.dataDir);
  await fs.mkdir(opts.dataDir, { recursive: true });
  // The whole database, password hashes and tokens included: this user only (also a folder an older version
  // made 0755), whatever the umask. PGlite writes its files 0666, so this folder is what keeps them closed.
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.chmod(dir, 0o700);
  const release = await lockDataDir(pgliteLockFile(opts.dataDir), opts.lock?.role ?? 'process', {
    waitMs: opts.lock?.waitMs ?? 0,
  });
  try {
    return await openPglite(dir, release);
  } catch (err) {
    await release();
    throw err;
  }
}

async function openPglite(
  dir: string | undefined,
  release: () => Promise<void>,
  image?: Blob,
): Promise<Database> {
  const client = await PGlite.create(dir, {
    extensions: pgliteExtensions,
    ...(image ? { loadDataDir: image } : {}),
  });
  return pgliteDatabase(client, async () => {
    try {
      await client.close();
    } finally {
      await release();
    }
  });
}

/**
 * The Database of an open PGlite client; `close` is what closing it does (the client's close and the data
 * directory's release here, giving the client back to a pool in the API tests).
 */
export function pgliteDatabase(client: PGlite, close: () => Promise<void>): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    connectionString: undefined,
    async executeSql(text, values) {
      // pg-boss sends its schema migrations as one parameterless multi-statement string, which only the
      // simple-query protocol (exec) accepts; everything else goes through the extended protocol.
      if (!values || values.length === 0) {
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      }
      const result = await client.query(text, values);
      return { rows: result.rows };
    },
    async migrate() {
      await migratePglite(db as never, { migrationsFolder });
    },
    dumpPglite: (read) =>
      client.transaction(async (tx) => {
        const value = await read({
          executeSql: async (text, values) => ({ rows: (await tx.query(text, values)).rows }),
        });
        // PGlite is PostgreSQL in single-user mode, without a background checkpointer: pages changed since
        // it opened may be in its memory only, their changes in the WAL. A checkpoint writes them out, so the
        // tarball holds the database itself rather than a crash image that must be recovered when opened.
        await tx.exec('checkpoint');
        // Uncompressed: every request waits while the files are read, and gzip would triple that wait.
        return { tarball: await client.dumpDataDir('none'), read: value };
      }),
    close,
  };
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client that errors (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    connectionString: url,
    async executeSql(text, values) {
      const result = await pool.query(text, values as unknown[]);
      return { rows: result.rows };
    },
    async migrate() {
      // Several API nodes may start at once: only one applies migrations, the others wait for it.
      const lock = await pool.connect();
      try {
        await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migratePg(db as never, { migrationsFolder });
      } finally {
        await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
        lock.release();
      }
    },
    async close() {
      await pool.end();
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}
