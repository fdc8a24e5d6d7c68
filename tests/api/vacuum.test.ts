// PGlite has no autovacuum: the server vacuums what a busy day of likes leaves behind (server/db/vacuum.ts).
// Always an in-memory PGlite here, in the PostgreSQL run too: there the server leaves it to PostgreSQL.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../server/db/client';
import { startPgliteVacuum, vacuumWhereNeeded } from '../../server/db/vacuum';

let database: Database;
let dataDir: string;

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-vacuum-'));
  database = await openDatabase({ databaseUrl: 'memory://', dataDir });
  await database.migrate();
});
afterAll(async () => {
  await database.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** The statistics a backend keeps are published at most once a second; a test cannot wait for that. */
const flushStats = () => database.executeSql('select pg_stat_force_next_flush()');

const videoStats = async () =>
  (
    await database.executeSql(
      `select n_dead_tup::int as dead, last_vacuum from pg_stat_user_tables where relname = 'videos'`,
    )
  ).rows[0] as { dead: number; last_vacuum: Date | null };

it('clears the dead rows that counter updates leave, once there are enough, and then rests', async () => {
  await database.executeSql(`insert into users (type, name, username, slug, email, password_hash)
    values ('model', 'Vee', 'vee', 'vee', 'vee@vacuum.test', 'x')`);
  await database.executeSql(`insert into videos (user_id, slug, title, status, duration_seconds)
    select (select id from users where username = 'vee'), 'clip-' || g, 'Clip ' || g, 'approved', 8
    from generate_series(1, 200) g`);
  await vacuumWhereNeeded(database);
  // A like bumps its video's counter: an UPDATE, which leaves the old row version dead.
  for (let i = 0; i < 3; i++) await database.executeSql('update videos set like_count = like_count + 1');
  await flushStats();
  const before = await videoStats();
  expect(before.dead).toBeGreaterThanOrEqual(600);

  const logged: string[] = [];
  const stop = startPgliteVacuum(database, (message) => logged.push(message));
  await stop();
  await flushStats();
  const after = await videoStats();
  expect(after.dead).toBe(0);
  expect(after.last_vacuum).not.toBeNull();
  expect(logged.join('\n')).toMatch(/^vacuumed .*\bvideos\b.* in \d+ ms$/m);

  // Nothing changed since: nothing to do.
  await flushStats();
  expect(await vacuumWhereNeeded(database)).toEqual([]);
  // A few changes stay under the threshold (50 rows + 20 % of the table), as with autovacuum.
  await database.executeSql(
    'update videos set like_count = like_count + 1 where id in (select id from videos limit 10)',
  );
  await flushStats();
  expect((await videoStats()).dead).toBe(10);
  expect(await vacuumWhereNeeded(database)).toEqual([]);
});
