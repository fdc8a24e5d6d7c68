// One in-memory PGlite per test worker, emptied between the files that use it. Opening PGlite from the
// suite's migrated image costs about 1.3 s of CPU (unpacking 42 MB, then PostgreSQL's start), and the PGlite
// pass opened 62 of them, 115 s of its 574 s of test time. Emptying a used one back to the image's state takes
// a few tens of milliseconds: every table truncated, its sequences and the rows the migrations wrote put back
// as the image had them, and pg-boss's schema (which its start installs) dropped.
//
// A file's handle refuses every call once the file has closed it, as a closed PGlite does: a timer or a
// background write of that file's app cannot reach the next file's data.
import { PGlite } from '@electric-sql/pglite';
import { type Database, pgliteDatabase, pgliteExtensions } from '../../server/db/client';

interface Baseline {
  tables: string[];
  /** Rows the migrations wrote (weekly_window's start), as JSON per table. */
  rows: { table: string; json: string }[];
  sequences: { name: string; value: string; called: boolean }[];
}

let spare: { client: PGlite; baseline: Baseline } | undefined;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** What the image holds: the state every file starts from. */
async function readBaseline(client: PGlite): Promise<Baseline> {
  const tables = (
    await client.query<{ name: string }>(
      `select tablename as name from pg_tables where schemaname = 'public' order by tablename`,
    )
  ).rows.map((r) => r.name);
  const rows: Baseline['rows'] = [];
  for (const table of tables) {
    const [row] = (
      await client.query<{ json: string | null }>(
        `select json_agg(t)::text as json from public.${quote(table)} t`,
      )
    ).rows;
    if (row?.json) rows.push({ table, json: row.json });
  }
  const sequences: Baseline['sequences'] = [];
  for (const { name } of (
    await client.query<{ name: string }>(
      `select sequencename as name from pg_sequences where schemaname = 'public' order by 1`,
    )
  ).rows) {
    const [state] = (
      await client.query<{ value: string; called: boolean }>(
        `select last_value::text as value, is_called as called from public.${quote(name)}`,
      )
    ).rows;
    if (state) sequences.push({ name, ...state });
  }
  return { tables, rows, sequences };
}

/** Puts the database back as the image had it. */
async function empty(client: PGlite, baseline: Baseline) {
  await client.transaction(async (tx) => {
    // audit_log refuses TRUNCATE by a trigger (append-only); in replica mode no user trigger fires.
    await tx.exec(`set local session_replication_role = replica`);
    await tx.exec(`truncate ${baseline.tables.map((t) => `public.${quote(t)}`).join(', ')} cascade`);
    for (const { table, json } of baseline.rows) {
      await tx.query(
        `insert into public.${quote(table)} overriding system value
         select * from json_populate_recordset(null::public.${quote(table)}, $1::json)`,
        [json],
      );
    }
    for (const { name, value, called } of baseline.sequences) {
      await tx.query(`select setval($1, $2::bigint, $3)`, [`public.${quote(name)}`, value, called]);
    }
    await tx.exec(`drop schema if exists pgboss cascade`);
  });
  await client.exec(`select pg_advisory_unlock_all()`);
}

/**
 * A migrated in-memory database for one test file: the worker's spare if it has one, else one opened from
 * `image`. Closing it empties it and keeps it for the worker's next file.
 */
export async function pooledPglite(image: () => Promise<Blob>): Promise<Database> {
  let taken = spare;
  spare = undefined;
  if (!taken) {
    const client = await PGlite.create({ extensions: pgliteExtensions, loadDataDir: await image() });
    taken = { client, baseline: await readBaseline(client) };
  }
  const { client, baseline } = taken;
  let open = true;
  const handle = new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function' || prop === 'constructor') return value;
      if (!open) return () => Promise.reject(new Error('PGlite is closed'));
      // PGlite's methods use private fields: they must run on the client itself, not on the proxy.
      return value.bind(target);
    },
  });
  let closing: Promise<void> | undefined;
  return pgliteDatabase(handle, () => {
    closing ??= (async () => {
      open = false;
      try {
        await empty(client, baseline);
        // A file that held two at once gives one back; the worker keeps a single spare.
        if (spare) await client.close();
        else spare = { client, baseline };
      } catch {
        await client.close().catch(() => {});
      }
    })();
    return closing;
  });
}
