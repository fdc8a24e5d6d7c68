// PGlite has no autovacuum. Without it every like, view or rating (an UPDATE of the video's counters) leaves a
// dead row version behind for good, the tables only grow, and the index-only walks the lists rely on keep
// visiting the heap because no page is ever marked all-visible. Measured with the catalogue bench (PGlite,
// 10k → 100k videos, a million likes and views): after a VACUUM the tag feed's 10th page went from 27 to 20 ms
// and uncached discover from 1.0 to 0.86 s at 100k. So the server does what autovacuum would, with its
// default thresholds, checked once a minute. PostgreSQL runs its own autovacuum: nothing here runs there.
import { repeatEvery } from '../util/every';
import type { Database } from './client';

/** How often the statistics are looked at; the query is a few ms even on a large catalogue. */
const CHECK_EVERY_MS = 60_000;

/**
 * Tables whose dead rows or changes since the last ANALYZE passed autovacuum's default thresholds
 * (50 rows + 20 % of the table dead, 50 rows + 10 % changed), each vacuumed and analysed. Returns their names.
 */
export async function vacuumWhereNeeded(database: Database): Promise<string[]> {
  // The app's tables and pg-boss's (its job rows are inserted, updated and deleted all day).
  const { rows } = await database.executeSql(
    `select schemaname, relname from pg_stat_user_tables
      where n_dead_tup > 50 + 0.2 * n_live_tup or n_mod_since_analyze > 50 + 0.1 * n_live_tup
      order by schemaname, relname`,
  );
  const tables = rows as { schemaname: string; relname: string }[];
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  // One statement per table: VACUUM takes no parameters, and the names come from the catalogue itself.
  for (const { schemaname, relname } of tables)
    await database.executeSql(`vacuum (analyze) ${quote(schemaname)}.${quote(relname)}`);
  return tables.map(({ schemaname, relname }) =>
    schemaname === 'public' ? relname : `${schemaname}.${relname}`,
  );
}

/**
 * On PGlite, vacuums what needs it now and then every minute. The returned function stops it, after any
 * vacuum under way, so that the database can be closed.
 */
export function startPgliteVacuum(database: Database, log: (message: string) => void): () => Promise<void> {
  if (database.kind !== 'pglite') return async () => {};
  return repeatEvery(
    CHECK_EVERY_MS,
    async () => {
      const started = performance.now();
      const tables = await vacuumWhereNeeded(database);
      if (tables.length)
        log(`vacuumed ${tables.join(', ')} in ${Math.round(performance.now() - started)} ms`);
    },
    (err) => log(`vacuum failed: ${err.message}`),
  );
}
