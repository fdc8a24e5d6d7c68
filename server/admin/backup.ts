// `npm run admin -- backup DIR` and `restore DIR` (README, "Backup and restore"). A backup is a folder:
//
//   database.tar.gz   PGlite: its data directory, as PGlite's own dumpDataDir() takes it, gzipped
//   database.pgdump   PostgreSQL: pg_dump's custom format, for pg_restore
//   media/…           local storage: DATA_DIR/media and DATA_DIR/private, at the paths they have under DATA_DIR
//   manifest.json     written last: what the backup holds (rows per table, every file and its size)
//
// The folder holds password hashes, TOTP keys and identity documents: it is made 0700, its files 0600.
//
// Consistency while the server runs. The database is read in one moment (PGlite: inside one transaction on its
// only connection, which no other statement can use meanwhile; PostgreSQL: pg_dump in a snapshot exported by a
// repeatable-read transaction, in which the rows are counted too), and the files are copied after it. So every
// file a row of the snapshot names was there already (the pipeline publishes files before a row names them, tus
// makes an upload's file right after its session row) and is copied, unless it was deleted in the seconds
// between: a video deleted, an avatar replaced, an upload finished (its bytes moved to the originals; the tus
// client, told the upload is gone, sends it again). Files newer than the snapshot are copied too; no row names
// them. An upload in flight keeps its session row from the snapshot and its bytes as they were at the copy, a
// little later: tus counts the offset from the file's size, so a client resumes the restored upload from
// exactly the bytes that were restored.
import { spawn } from 'node:child_process';
import { createWriteStream, type Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebStream } from 'node:stream/web';
import { createGzip } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import * as v from 'valibot';
import { formatBytes } from '../../src/contract/upload';
import type { Config } from '../config';
import { type Database, pgliteDir, pgliteExtensions, pgliteLockFile, type SqlExecutor } from '../db/client';
import { DataDirBusyError, lockDataDir } from '../db/lock';
import { type MediaStorage, S3Storage } from '../media/storage';
import { CliError } from './cli-error';

export const MANIFEST_FILE = 'manifest.json';
/** Files of DATA_DIR are kept under this folder of the backup, at their path relative to DATA_DIR. */
export const MEDIA_FOLDER = 'media';
const DATABASE_FILE = { pglite: 'database.tar.gz', postgres: 'database.pgdump' } as const;
const FORMAT = 'shortcams-backup';
const VERSION = 1;

/** The folders of DATA_DIR a backup copies (local storage only). */
const ROOTS = ['media', 'private'] as const;
/**
 * Work in progress that no restore can use: ffmpeg's folders (the pipeline starts again from the original)
 * and multipart bodies being received (their request dies with the server that received them).
 */
const SKIPPED = new Set(['private/tmp', 'private/incoming']);
/** storage.putFile's copy being written beside its target, renamed over it when complete. */
const IN_PROGRESS = /\.[0-9a-f]{12}\.partial$/;

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

const fileSchema = v.object({
  path: v.pipe(
    v.string(),
    v.check(
      (p) =>
        path.posix.normalize(p) === p &&
        !p.split('/').includes('..') &&
        ROOTS.some((root) => p.startsWith(`${root}/`)),
      'a file outside media/ and private/',
    ),
  ),
  size: v.pipe(v.number(), v.integer(), v.minValue(0)),
  mode: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(0o7777)),
});

const manifestSchema = v.object({
  format: v.literal(FORMAT),
  version: v.literal(VERSION),
  createdAt: v.string(),
  database: v.object({
    kind: v.picklist(['pglite', 'postgres']),
    file: v.picklist(Object.values(DATABASE_FILE)),
    size: v.pipe(v.number(), v.integer(), v.minValue(0)),
    /** Rows of each table of the public schema, counted in the snapshot itself. */
    rows: v.record(v.string(), v.pipe(v.number(), v.integer(), v.minValue(0))),
  }),
  media: v.variant('storage', [
    v.object({ storage: v.literal('local') }),
    v.object({ storage: v.literal('s3'), bucket: v.string() }),
  ]),
  files: v.array(fileSchema),
});
export type Manifest = v.InferOutput<typeof manifestSchema>;
type FileEntry = Manifest['files'][number];

/** What a backup needs: the server's (or the CLI's) open database, its storage and configuration. */
export interface BackupDeps {
  config: Pick<Config, 'dataDir' | 'databaseUrl'>;
  database: Database;
  storage: MediaStorage;
}

const errno = (err: unknown) => (err as NodeJS.ErrnoException).code;

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Entries of a folder; none when it does not exist. */
async function entriesOf(dir: string): Promise<string[]> {
  return fs.readdir(dir).catch((err: unknown) => {
    if (errno(err) === 'ENOENT') return [];
    throw err;
  });
}

const isInside = (parent: string, child: string) => {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/** Rows of every table of the public schema (the app's; pg-boss and the migrations have their own). */
async function countRows(sql: SqlExecutor): Promise<Record<string, number>> {
  const { rows } = await sql.executeSql(
    "select table_name as name from information_schema.tables where table_schema = 'public' " +
      "and table_type = 'BASE TABLE' order by table_name",
    [],
  );
  const counts: Record<string, number> = {};
  for (const { name } of rows as { name: string }[]) {
    const [row] = (
      await sql.executeSql(`select count(*)::text as n from "${name.replaceAll('"', '""')}"`, [])
    ).rows as { n: string }[];
    counts[name] = Number(row?.n ?? 0);
  }
  return counts;
}

const pgExecutor = (client: pg.Client): SqlExecutor => ({
  executeSql: async (text, values) => ({ rows: (await client.query(text, values)).rows }),
});
const pgliteExecutor = (client: PGlite): SqlExecutor => ({
  executeSql: async (text, values) => ({ rows: (await client.query(text, values)).rows }),
});

const rowTotal = (rows: Record<string, number>) => Object.values(rows).reduce((sum, n) => sum + n, 0);

// ---- the PostgreSQL client tools ---------------------------------------------------------------------------

/**
 * The connection string without its password, which goes in PGPASSWORD instead: a command line is visible
 * to every account of the machine (ps), the environment of a process only to its own.
 */
function libpqTarget(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return {
    dbname: parsed.toString(),
    env: password ? { ...process.env, PGPASSWORD: password } : process.env,
  };
}

/** Runs pg_dump or pg_restore; their own words on failure. */
function runTool(tool: 'pg_dump' | 'pg_restore', args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let text = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (text.length < 20_000) text += chunk;
    });
    child.on('error', (err) => {
      if (errno(err) === 'ENOENT') {
        reject(
          new CliError(
            `${tool} was not found on PATH: a backup or restore of PostgreSQL runs PostgreSQL's client tools ` +
              "pg_dump and pg_restore (apt-get install postgresql-client, of the server's major version or newer)",
          ),
        );
      } else reject(err);
    });
    child.on('close', (code) => {
      if (code === 0) resolve();
      else reject(new CliError(`${tool} failed (exit code ${code}):\n${text.trim()}`));
    });
  });
}

// ---- backup ---------------------------------------------------------------------------------------------

/** A new folder, or an empty one, made the operator's alone; anything else is refused. */
async function prepareFolder(dir: string, dataDir: string) {
  if (!path.isAbsolute(dir)) throw new CliError(`backup folder must be an absolute path, got ${dir}`);
  // Inside the folders it copies, a backup would copy itself; under DATA_DIR/media it would be served at /media.
  for (const root of ROOTS) {
    if (isInside(path.join(dataDir, root), dir))
      throw new CliError(
        `${dir} is inside ${path.join(dataDir, root)}: put the backup outside DATA_DIR/${root}`,
      );
  }
  const found = await entriesOf(dir).catch((err: unknown) => {
    throw new CliError(`cannot read ${dir}: ${errno(err) ?? (err as Error).message}`);
  });
  if (found.length > 0) {
    throw new CliError(
      `${dir} is not empty: a backup goes into a new or empty folder, so that it holds nothing else`,
    );
  }
  try {
    await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
    await fs.chmod(dir, PRIVATE_DIR);
  } catch (err) {
    throw new CliError(`cannot create ${dir}: ${errno(err) ?? (err as Error).message}`);
  }
}

async function dumpPglite(database: Database, file: string) {
  if (!database.dumpPglite) throw new Error('this PGlite handle cannot be dumped');
  const { tarball, read } = await database.dumpPglite(countRows);
  // Compressed here, off the database's lock and in zlib's threads: requests go on meanwhile.
  await pipeline(
    // Streamed from the Blob: no second copy of a database's size in the server's memory.
    Readable.fromWeb(tarball.stream() as WebStream<Uint8Array>),
    createGzip(),
    createWriteStream(file, { mode: PRIVATE_FILE, flags: 'wx' }),
  );
  return read;
}

async function dumpPostgres(url: string, file: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // pg_dump reads in the snapshot of this transaction, which stays open until it is done: the rows counted
    // here are the rows it dumps, whatever the servers write meanwhile.
    await client.query('begin transaction isolation level repeatable read, read only');
    const { rows } = await client.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot');
    const counts = await countRows(pgExecutor(client));
    const target = libpqTarget(url);
    await runTool(
      'pg_dump',
      ['--format=custom', `--snapshot=${rows[0]?.snapshot}`, `--file=${file}`, `--dbname=${target.dbname}`],
      target.env,
    );
    await fs.chmod(file, PRIVATE_FILE);
    await client.query('commit');
    return counts;
  } finally {
    await client.end();
  }
}

/**
 * Copies the files under DATA_DIR/`relative` into the backup's media folder. A file or folder that goes away
 * while it is walked was deleted after the snapshot: nothing in the backup names it.
 */
async function copyTree(dataDir: string, relative: string, into: string, out: FileEntry[]) {
  if (SKIPPED.has(relative)) return;
  const from = path.join(dataDir, relative);
  let entries: Dirent[];
  try {
    entries = await fs.readdir(from, { withFileTypes: true });
  } catch (err) {
    if (errno(err) === 'ENOENT') return;
    throw err;
  }
  await fs.mkdir(path.join(into, relative), { recursive: true, mode: PRIVATE_DIR });
  for (const entry of entries) {
    const child = `${relative}/${entry.name}`;
    if (entry.isDirectory()) await copyTree(dataDir, child, into, out);
    if (!entry.isFile() || IN_PROGRESS.test(entry.name)) continue;
    const source = path.join(dataDir, child);
    const target = path.join(into, child);
    try {
      const { mode } = await fs.stat(source);
      // A reflink where the file system has them (btrfs, XFS): a backup of gigabytes of video in a moment.
      await fs.copyFile(source, target, fs.constants.COPYFILE_FICLONE);
      await fs.chmod(target, PRIVATE_FILE);
      // What was copied: a tus upload may have grown since the stat, the copy has the bytes it read.
      const { size } = await fs.stat(target);
      out.push({ path: child, size, mode: mode & 0o7777 });
    } catch (err) {
      if (errno(err) !== 'ENOENT') throw err;
      await fs.rm(target, { force: true });
    }
  }
}

/** The database, then the files, then the manifest that says what they are. */
async function writeBackup(deps: BackupDeps, dir: string): Promise<Manifest> {
  const { dataDir } = deps.config;
  const kind = deps.database.kind;
  const databaseFile = path.join(dir, DATABASE_FILE[kind]);
  // The database first, the files after it (see the top of this file).
  const rows =
    kind === 'pglite'
      ? await dumpPglite(deps.database, databaseFile)
      : await dumpPostgres(deps.config.databaseUrl ?? '', databaseFile);
  const files: FileEntry[] = [];
  const storage = deps.storage;
  if (storage.kind === 'local') {
    for (const root of ROOTS) await copyTree(dataDir, root, path.join(dir, MEDIA_FOLDER), files);
  }
  const manifest: Manifest = {
    format: FORMAT,
    version: VERSION,
    createdAt: new Date().toISOString(),
    database: { kind, file: DATABASE_FILE[kind], size: (await fs.stat(databaseFile)).size, rows },
    media: storage instanceof S3Storage ? { storage: 's3', bucket: storage.bucket } : { storage: 'local' },
    files,
  };
  // Last: a folder without its manifest is a backup that did not finish, and restore refuses it.
  await fs.writeFile(path.join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: PRIVATE_FILE,
    flag: 'wx',
  });
  return manifest;
}

/**
 * Writes a backup of the database and (local storage) the media into `dir`, a new or empty folder. Runs where
 * the database is open: in the server itself when it runs on PGlite (the CLI's command travels over the
 * operator socket), else in the CLI.
 */
export async function backup(deps: BackupDeps, dir: string): Promise<string[]> {
  const started = performance.now();
  await prepareFolder(dir, deps.config.dataDir);
  let manifest: Manifest;
  try {
    manifest = await writeBackup(deps, dir);
  } catch (err) {
    // The folder was empty: what is in it now is this backup's, unfinished. Emptied, it takes the next try.
    for (const entry of await entriesOf(dir))
      await fs.rm(path.join(dir, entry), { recursive: true, force: true });
    throw err;
  }
  const { files, database } = manifest;
  const rows = database.rows;
  const bytes = files.reduce((sum, f) => sum + f.size, 0);
  const tables = Object.keys(rows).length;
  return [
    `backup written to ${dir} in ${seconds(started)} (readable by this account only)`,
    `  database: ${database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}, ${tables} tables, ${rowTotal(rows)} rows → ` +
      `${manifest.database.file} (${formatBytes(manifest.database.size)})`,
    manifest.media.storage === 's3'
      ? `  media: not copied, it stays in the S3 bucket "${manifest.media.bucket}": keep it with the bucket's ` +
        'versioning (or replication to another bucket)'
      : `  media: ${files.length} files (${formatBytes(bytes)}) → ${MEDIA_FOLDER}/`,
  ];
}

// ---- restore --------------------------------------------------------------------------------------------

/** The backup's manifest, checked against the files beside it. */
async function readBackup(dir: string): Promise<Manifest> {
  const stat = await fs.stat(dir).catch(() => undefined);
  if (!stat?.isDirectory())
    throw new CliError(`${dir} is not a folder: name the folder a backup was written to`);
  const text = await fs.readFile(path.join(dir, MANIFEST_FILE), 'utf8').catch((err: unknown) => {
    if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') {
      throw new CliError(
        `${dir} has no ${MANIFEST_FILE}: it is not a backup of this app, or its backup did not finish`,
      );
    }
    throw new CliError(
      `cannot read ${path.join(dir, MANIFEST_FILE)}: ${errno(err) ?? (err as Error).message}`,
    );
  });
  let parsed: v.SafeParseResult<typeof manifestSchema>;
  try {
    parsed = v.safeParse(manifestSchema, JSON.parse(text));
  } catch {
    throw new CliError(`${path.join(dir, MANIFEST_FILE)} is not JSON: the backup is damaged`);
  }
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue.path?.map((p) => String(p.key)).join('.') ?? '';
    throw new CliError(
      `${path.join(dir, MANIFEST_FILE)} is not a manifest this version can read (${where}: ${issue.message})`,
    );
  }
  const manifest = parsed.output;
  const expect = [
    { path: manifest.database.file, size: manifest.database.size },
    ...manifest.files.map((f) => ({ path: `${MEDIA_FOLDER}/${f.path}`, size: f.size })),
  ];
  for (const file of expect) {
    const stat = await fs.stat(path.join(dir, file.path)).catch(() => undefined);
    if (!stat?.isFile()) throw new CliError(`the backup in ${dir} is incomplete: ${file.path} is missing`);
    if (stat.size !== file.size) {
      throw new CliError(
        `the backup in ${dir} is damaged: ${file.path} has ${stat.size} bytes, its manifest says ${file.size}`,
      );
    }
  }
  return manifest;
}

/** The folders of local storage in the target data dir hold nothing. */
async function refuseLocalMedia(dataDir: string) {
  for (const root of ROOTS) {
    if ((await entriesOf(path.join(dataDir, root))).length > 0) {
      throw new CliError(
        `${path.join(dataDir, root)} is not empty: restore goes into an empty data dir (a new DATA_DIR)`,
      );
    }
  }
}

/** Copies the backup's files to where they were, with their modes; private folders 0700 and files 0600. */
async function restoreFiles(dir: string, dataDir: string, files: FileEntry[]) {
  await fs.mkdir(path.join(dataDir, 'private'), { recursive: true, mode: PRIVATE_DIR });
  await fs.chmod(path.join(dataDir, 'private'), PRIVATE_DIR);
  for (const file of files) {
    const isPrivate = file.path.startsWith('private/');
    const target = path.join(dataDir, file.path);
    await fs.mkdir(path.dirname(target), { recursive: true, ...(isPrivate ? { mode: PRIVATE_DIR } : {}) });
    await fs.copyFile(path.join(dir, MEDIA_FOLDER, file.path), target, fs.constants.COPYFILE_FICLONE);
    await fs.chmod(target, isPrivate ? PRIVATE_FILE : file.mode);
  }
}

async function restorePglite(config: Pick<Config, 'dataDir'>, file: string) {
  const dir = pgliteDir(config.dataDir);
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
  await fs.chmod(dir, PRIVATE_DIR);
  const tarball = new File([await fs.readFile(file)], 'pgdata.tar.gz', { type: 'application/x-gzip' });
  const client = await PGlite.create(dir, { loadDataDir: tarball, extensions: pgliteExtensions });
  try {
    return await countRows(pgliteExecutor(client));
  } finally {
    await client.close();
  }
}

async function tablesIn(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    'select count(*)::int as n from pg_class c join pg_namespace s on s.oid = c.relnamespace ' +
      "where c.relkind in ('r', 'p') and s.nspname not in ('pg_catalog', 'information_schema') " +
      "and s.nspname not like 'pg\\_toast%'",
  );
  return rows[0]?.n ?? 0;
}

async function restorePostgres(url: string, file: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const target = libpqTarget(url);
    // One transaction: a restore that fails leaves the database as empty as it was.
    await runTool(
      'pg_restore',
      [
        '--exit-on-error',
        '--single-transaction',
        // The tables belong to the role of DATABASE_URL, whoever owned them where the backup was taken.
        '--no-owner',
        '--no-acl',
        `--dbname=${target.dbname}`,
        file,
      ],
      target.env,
    );
    return await countRows(pgExecutor(client));
  } finally {
    await client.end();
  }
}

/** Throws unless the restored database holds the rows its manifest counted. */
function checkRows(expected: Record<string, number>, found: Record<string, number>) {
  const names = new Set([...Object.keys(expected), ...Object.keys(found)]);
  const wrong = [...names].filter((name) => expected[name] !== found[name]);
  if (wrong.length > 0) {
    const detail = wrong.map((n) => `${n}: ${found[n] ?? 'no table'} (backup: ${expected[n] ?? 'no table'})`);
    throw new CliError(`the restored database differs from its backup: ${detail.join(', ')}`);
  }
}

/**
 * Brings the backup in `dir` back into the data dir and database of `config`, which must be empty: a new
 * DATA_DIR (PGlite), or an empty database (DATABASE_URL). Never while a server runs on them.
 */
export async function restore(
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 's3'>,
  dir: string,
): Promise<string[]> {
  const started = performance.now();
  if (!path.isAbsolute(dir)) throw new CliError(`backup folder must be an absolute path, got ${dir}`);
  const manifest = await readBackup(dir);
  const url = config.databaseUrl;
  if (url === 'memory://')
    throw new CliError('DATABASE_URL=memory:// keeps nothing: restore into a data dir');
  const kind = url ? 'postgres' : 'pglite';
  if (manifest.database.kind !== kind) {
    const names = { pglite: 'PGlite (DATABASE_URL unset)', postgres: 'PostgreSQL (DATABASE_URL)' };
    throw new CliError(
      `the backup in ${dir} holds a ${names[manifest.database.kind]} database, but this configuration uses ` +
        `${names[kind]}: restore it with the same kind of database`,
    );
  }
  const localMedia = !config.s3;
  if (!localMedia && manifest.files.length > 0) {
    throw new CliError(
      `the backup in ${dir} holds media files of local storage, but S3_BUCKET is set: restore with S3_BUCKET ` +
        `unset, or copy ${path.join(dir, MEDIA_FOLDER)} into the bucket yourself`,
    );
  }
  const dataDir = config.dataDir;
  const databaseFile = path.join(dir, manifest.database.file);
  let rows: Record<string, number>;
  if (kind === 'pglite') {
    await fs.mkdir(dataDir, { recursive: true });
    // Held against a server starting on this data dir while it is restored.
    const release = await lockDataDir(pgliteLockFile(dataDir), 'restore').catch((err: unknown) => {
      if (!(err instanceof DataDirBusyError)) throw err;
      throw new CliError(
        `${dataDir} is in use by the ${err.holder.role} (pid ${err.holder.pid}): restore goes into a data dir ` +
          'that no server uses',
      );
    });
    try {
      if ((await entriesOf(pgliteDir(dataDir))).length > 0) {
        throw new CliError(
          `${dataDir} already has a database (${pgliteDir(dataDir)}): restore goes into an empty data dir (a new DATA_DIR)`,
        );
      }
      if (localMedia) await refuseLocalMedia(dataDir);
      try {
        rows = await restorePglite(config, databaseFile);
        checkRows(manifest.database.rows, rows);
        if (localMedia) await restoreFiles(dir, dataDir, manifest.files);
      } catch (err) {
        // Everything here was made by this restore: the data dir is left as empty as it was found.
        for (const made of [pgliteDir(dataDir), ...ROOTS.map((r) => path.join(dataDir, r))])
          await fs.rm(made, { recursive: true, force: true });
        throw err;
      }
    } finally {
      await release();
    }
  } else {
    const client = new pg.Client({ connectionString: url });
    await client.connect().catch((err: unknown) => {
      throw new CliError(`cannot connect to DATABASE_URL: ${(err as Error).message}`);
    });
    try {
      if ((await tablesIn(client)) > 0) {
        throw new CliError(
          `the database of DATABASE_URL (${client.database}) already has tables: restore goes into an empty ` +
            'database (createdb a new one)',
        );
      }
    } finally {
      await client.end();
    }
    if (localMedia) await refuseLocalMedia(dataDir);
    rows = await restorePostgres(url ?? '', databaseFile);
    try {
      checkRows(manifest.database.rows, rows);
      if (localMedia) await restoreFiles(dir, dataDir, manifest.files);
    } catch (err) {
      for (const root of ROOTS) await fs.rm(path.join(dataDir, root), { recursive: true, force: true });
      const message = err instanceof Error ? err.message : String(err);
      throw new CliError(
        `${message}\nthe database of DATABASE_URL now holds the backup's tables: drop it and create it again ` +
          'before you restore again',
      );
    }
  }
  const bytes = manifest.files.reduce((sum, f) => sum + f.size, 0);
  return [
    `restored ${dir} (taken ${manifest.createdAt}) in ${seconds(started)}`,
    `  database: ${kind === 'pglite' ? `PGlite in ${pgliteDir(dataDir)}` : 'PostgreSQL (DATABASE_URL)'}, ` +
      `${Object.keys(rows).length} tables, ${rowTotal(rows)} rows, as many as the backup counted`,
    manifest.media.storage === 's3'
      ? `  media: in the S3 bucket "${manifest.media.bucket}", not in the backup: start the server with S3_BUCKET ` +
        'naming it (or a copy of it)'
      : `  media: ${manifest.files.length} files (${formatBytes(bytes)}) in ${dataDir}`,
    'start the server on it (npm start)',
  ];
}
