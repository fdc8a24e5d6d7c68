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
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

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
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Any fixed number works; it only has to be the same on every API node. */
const MIGRATION_LOCK_ID = 724_000_001;

/**
 * `databaseUrl` undefined: a PGlite database in `dataDir/pgdata`; `memory://`: PGlite in memory;
 * otherwise a PostgreSQL connection string.
 */
export async function openDatabase(opts: {
  databaseUrl?: string | undefined;
  dataDir: string;
}): Promise<Database> {
  const url = opts.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) return openPostgres(url);
  if (url && url !== 'memory://') throw new Error('DATABASE_URL must be postgres://… or memory://');
  let dir: string | undefined;
  if (!url) {
    dir = path.join(opts.dataDir, 'pgdata');
    await fs.mkdir(dir, { recursive: true });
  }
  return openPglite(dir);
}

async function openPglite(dir: string | undefined): Promise<Database> {
  // pg_trgm backs typo-tolerant search; PostgreSQL ships it as a contrib extension, PGlite as a bundle.
  const client = await PGlite.create(dir, { extensions: { pg_trgm } });
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
    async close() {
      await client.close();
    },
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
  };
}
