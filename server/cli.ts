// Operator commands: `npm run admin -- <command>`. Each command is an exported function on a database
// handle, so the tests run exactly what the operator runs. While a server runs on PGlite, the command is
// run by that server (see runOperatorCommand).
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { and, asc, desc, eq } from 'drizzle-orm';
import * as v from 'valibot';
import {
  createOperatorSchema,
  operatorRoleSchema,
  type VerificationRejectReason,
  type VideoRejectReason,
  verificationRejectReasons,
  videoRejectReasons,
} from '../src/contract/admin';
import { CLI_ACTOR } from './admin/audit';
import { backup, restore } from './admin/backup';
import { CliError } from './admin/cli-error';
import { approveVideo, decideVerification, rejectVideo } from './admin/moderation';
import { createOperator, listOperators, operatorByEmail, removeOperator } from './admin/operators';
import { reviewQueue } from './admin/queues';
import { hashToken, newToken } from './auth/tokens';
import { type Config, loadConfig } from './config';
import { type Db, openDatabase } from './db/client';
import { DataDirBusyError } from './db/lock';
import * as t from './db/schema';
import type { AppDeps } from './deps';
import { createStorage } from './media/storage';
import { type OperatorAnswer, operatorSocketPath, sendOperatorCommand } from './operator';
import { DomainError } from './util/domain-error';

export { CliError };

/** What a command needs: the database, and for mails and media the same configuration as the server. */
export type CliDeps = Pick<AppDeps, 'config' | 'database' | 'storage' | 'jobs'>;

/** The CLI acts as `cli` in the audit log: whoever holds the server's shell. */
const actor = CLI_ACTOR;

export async function listVerifications(db: Db) {
  return db
    .select({
      userId: t.users.id,
      username: t.users.username,
      email: t.users.email,
      legalName: t.verificationRequests.legalName,
      stageName: t.verificationRequests.stageName,
      country: t.verificationRequests.country,
      age: t.verificationRequests.age,
      identification: t.verificationRequests.identification,
      submittedAt: t.verificationRequests.createdAt,
    })
    .from(t.verificationRequests)
    .innerJoin(t.users, eq(t.users.id, t.verificationRequests.userId))
    .where(eq(t.verificationRequests.status, 'pending'))
    .orderBy(asc(t.verificationRequests.createdAt));
}

/**
 * Decides the user's latest pending request, as the console does (server/admin/moderation.ts): the account's
 * status follows, the creator gets the mail, the audit log the line.
 */
async function reviewVerification(
  deps: CliDeps,
  userId: number,
  decision: 'approved' | 'rejected',
  reason: VerificationRejectReason = 'other',
  note = '',
) {
  const [request] = await deps.database.db
    .select({ id: t.verificationRequests.id })
    .from(t.verificationRequests)
    .where(and(eq(t.verificationRequests.userId, userId), eq(t.verificationRequests.status, 'pending')))
    .orderBy(desc(t.verificationRequests.createdAt))
    .limit(1);
  if (!request) throw new CliError(`user ${userId} has no pending verification request`);
  await decideVerification(
    deps,
    actor,
    request.id,
    decision === 'approved' ? { approve: true } : { approve: false, reason, note },
  );
}

/** The key is shown once, here; only its hash is stored, like every other secret token. */
export async function createStudio(db: Db, name: string) {
  if (!name.trim()) throw new CliError('studio name is empty');
  const key = newToken();
  const [studio] = await db
    .insert(t.studios)
    .values({ name: name.trim(), keyHash: hashToken(key) })
    .returning();
  if (!studio) throw new Error('insert returned nothing');
  return { id: studio.id, name: studio.name, key };
}

export async function makeStudioManager(db: Db, userId: number, studioId: number) {
  const [studio] = await db.select().from(t.studios).where(eq(t.studios.id, studioId));
  if (!studio) throw new CliError(`no studio ${studioId}`);
  const updated = await db
    .update(t.users)
    .set({ studioId, studioRole: 'manager', updatedAt: new Date() })
    .where(eq(t.users.id, userId))
    .returning({ id: t.users.id });
  if (updated.length === 0) throw new CliError(`no user ${userId}`);
}

export async function setPage(db: Db, slug: string, html: string, title?: string) {
  if (!/^[a-z0-9-]{1,64}$/.test(slug)) throw new CliError('slug: lower-case letters, digits and hyphens');
  const pageTitle = title ?? slug.charAt(0).toUpperCase() + slug.slice(1);
  await db
    .insert(t.pages)
    .values({ slug, title: pageTitle, content: html })
    .onConflictDoUpdate({
      target: t.pages.slug,
      set: { content: html, ...(title !== undefined && { title }), updatedAt: new Date() },
    });
}

const USAGE = `usage: npm run admin -- <command>
  operator create <email> --role moderator|admin   prints a one-time sign-in link
  operator list
  operator remove <email>
  videos review                                     uploads waiting for review
  videos approve <videoId>
  videos reject <videoId> <reason> [note]           reasons: ${Object.keys(videoRejectReasons).join(', ')}
  verifications list
  verifications approve <userId>
  verifications reject <userId> [reason] [note]     reasons: ${Object.keys(verificationRejectReasons).join(', ')}
  studio create <name>
  studio manager <userId> <studioId>
  page set <slug> <file.html> [title]
  backup <dir>                                      database and media into a new folder, server running or not
  restore <dir>                                     a backup into an empty DATA_DIR / database, server stopped`;

const id = (value: string | undefined, what: string) => {
  if (!value || !/^\d+$/.test(value)) throw new CliError(`${what} must be a number\n${USAGE}`);
  return Number(value);
};

const positive = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647));

/**
 * One operator command, as it travels to a running server over its operator socket (server/operator.ts):
 * parsed where it is typed (a page's file is read there, relative to the operator's directory), run where
 * the database is open.
 */
export const commandSchema = v.variant('kind', [
  v.object({ kind: v.literal('verifications-list') }),
  v.object({
    kind: v.literal('verification-review'),
    userId: positive,
    decision: v.picklist(['approved', 'rejected']),
    reason: v.optional(v.picklist(Object.keys(verificationRejectReasons) as [VerificationRejectReason])),
    note: v.optional(v.pipe(v.string(), v.maxLength(2000))),
  }),
  v.object({ kind: v.literal('operator-create'), email: v.string(), role: operatorRoleSchema }),
  v.object({ kind: v.literal('operator-list') }),
  v.object({ kind: v.literal('operator-remove'), email: v.string() }),
  v.object({ kind: v.literal('videos-review') }),
  v.object({
    kind: v.literal('video-review'),
    videoId: positive,
    decision: v.picklist(['approved', 'rejected']),
    reason: v.optional(v.picklist(Object.keys(videoRejectReasons) as [VideoRejectReason])),
    note: v.optional(v.pipe(v.string(), v.maxLength(2000))),
  }),
  v.object({ kind: v.literal('studio-create'), name: v.pipe(v.string(), v.maxLength(200)) }),
  v.object({ kind: v.literal('studio-manager'), userId: positive, studioId: positive }),
  v.object({
    kind: v.literal('page-set'),
    slug: v.string(),
    html: v.string(),
    title: v.optional(v.string()),
  }),
  v.object({ kind: v.literal('backup'), dir: v.pipe(v.string(), v.minLength(1)) }),
]);
export type Command = v.InferOutput<typeof commandSchema>;

/** The words typed after `npm run admin --` as a command; a file named there is read here. */
export async function parseCommand(argv: readonly string[]): Promise<Command> {
  const [area, action, ...rest] = argv;
  // Resolved where it is typed: the server that writes the backup runs in a folder of its own.
  if (area === 'backup') {
    if (!action || rest.length > 0) throw new CliError(USAGE);
    return { kind: 'backup', dir: path.resolve(action) };
  }
  switch (`${area} ${action}`) {
    case 'verifications list':
      return { kind: 'verifications-list' };
    case 'verifications approve':
      return { kind: 'verification-review', userId: id(rest[0], 'userId'), decision: 'approved' };
    case 'verifications reject': {
      const [, reason = 'other', ...note] = rest;
      if (!(reason in verificationRejectReasons)) throw new CliError(`unknown reason "${reason}"\n${USAGE}`);
      return {
        kind: 'verification-review',
        userId: id(rest[0], 'userId'),
        decision: 'rejected',
        reason: reason as VerificationRejectReason,
        note: note.join(' '),
      };
    }
    case 'operator create': {
      const roleAt = rest.indexOf('--role');
      const role = roleAt >= 0 ? rest[roleAt + 1] : 'moderator';
      const words = roleAt >= 0 ? [...rest.slice(0, roleAt), ...rest.slice(roleAt + 2)] : rest;
      const email = words[0];
      const parsed = v.safeParse(createOperatorSchema, { email, role });
      if (!parsed.success) throw new CliError(`${parsed.issues[0].message}\n${USAGE}`);
      return { kind: 'operator-create', email: parsed.output.email, role: parsed.output.role };
    }
    case 'operator list':
      return { kind: 'operator-list' };
    case 'operator remove':
      if (!rest[0]) throw new CliError(USAGE);
      return { kind: 'operator-remove', email: rest[0] };
    case 'videos review':
      return { kind: 'videos-review' };
    case 'videos approve':
      return { kind: 'video-review', videoId: id(rest[0], 'videoId'), decision: 'approved' };
    case 'videos reject': {
      const [, reason, ...note] = rest;
      if (!reason || !(reason in videoRejectReasons)) {
        throw new CliError(`a reason is needed: ${Object.keys(videoRejectReasons).join(', ')}`);
      }
      return {
        kind: 'video-review',
        videoId: id(rest[0], 'videoId'),
        decision: 'rejected',
        reason: reason as VideoRejectReason,
        note: note.join(' '),
      };
    }
    case 'studio create':
      return { kind: 'studio-create', name: rest.join(' ') };
    case 'studio manager':
      return { kind: 'studio-manager', userId: id(rest[0], 'userId'), studioId: id(rest[1], 'studioId') };
    case 'page set': {
      const [slug, file, ...title] = rest;
      if (!slug || !file) throw new CliError(USAGE);
      const html = await fs.readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
        throw new CliError(`cannot read ${file}: ${err.code ?? err.message}`);
      });
      return { kind: 'page-set', slug, html, ...(title.length ? { title: title.join(' ') } : {}) };
    }
    default:
      throw new CliError(USAGE);
  }
}

/** Runs one command on an open database; returns the lines to print. */
export async function executeCommand(deps: CliDeps, command: Command): Promise<string[]> {
  const { db } = deps.database;
  switch (command.kind) {
    case 'verifications-list': {
      const rows = await listVerifications(db);
      if (rows.length === 0) return ['no pending verification requests'];
      return rows.map(
        (r) =>
          `user ${r.userId} @${r.username} <${r.email}> "${r.legalName}" as "${r.stageName}", ${r.country}, age ${r.age}, ${r.identification}, ${r.submittedAt.toISOString()}`,
      );
    }
    case 'verification-review':
      await reviewVerification(deps, command.userId, command.decision, command.reason, command.note);
      return [`user ${command.userId}: verification ${command.decision}`];
    case 'operator-create': {
      const created = await createOperator(db, actor, command.email, command.role);
      return [
        `operator ${created.operator.id} <${created.operator.email}> (${created.operator.role})`,
        `one-time sign-in link (shown only now, valid 72 hours): ${deps.config.publicUrl}/login/${created.token}`,
      ];
    }
    case 'operator-list': {
      const rows = await listOperators(db);
      if (rows.length === 0) return ['no operators'];
      return rows.map(
        (o) =>
          `operator ${o.id} <${o.email}> ${o.role}${o.active ? '' : ' (has not signed in yet)'}` +
          (o.lastSignInAt ? `, last sign-in ${o.lastSignInAt}` : ''),
      );
    }
    case 'operator-remove': {
      const operator = await operatorByEmail(db, command.email);
      if (!operator) throw new CliError(`no operator <${command.email}>`);
      await removeOperator(db, actor, operator.id);
      return [`operator <${operator.email}> removed; their sessions ended`];
    }
    case 'videos-review': {
      const page = await reviewQueue(db, deps.storage, { limit: 100 });
      if (page.items.length === 0) return ['no uploads waiting for review'];
      return page.items.map(
        (i) =>
          `video ${i.id} "${i.title}" by @${i.creator.slug} <${i.creator.email}>, ${i.review === 'held' ? 'held back' : 'public'}, queued ${i.queuedAt}`,
      );
    }
    case 'video-review':
      if (command.decision === 'approved') await approveVideo(deps, actor, command.videoId);
      else
        await rejectVideo(deps, actor, command.videoId, {
          reason: command.reason ?? 'other',
          note: command.note,
        });
      return [`video ${command.videoId}: ${command.decision}`];
    case 'studio-create': {
      const studio = await createStudio(db, command.name);
      return [`studio ${studio.id} "${studio.name}" created`, `join key (shown only now): ${studio.key}`];
    }
    case 'studio-manager':
      await makeStudioManager(db, command.userId, command.studioId);
      return [`user ${command.userId} now manages studio ${command.studioId}`];
    case 'page-set':
      await setPage(db, command.slug, command.html, command.title);
      return [`page ${command.slug} saved`];
    case 'backup':
      return backup(deps, command.dir);
  }
}

/** A service's refusal (server/util/domain-error.ts) reads like any other CLI error. */
async function executeOrExplain(deps: CliDeps, command: Command): Promise<string[]> {
  try {
    return await executeCommand(deps, command);
  } catch (err) {
    if (err instanceof DomainError) throw new CliError(err.message);
    throw err;
  }
}

/** The server's side of the operator socket: a command from the wire, checked, run, answered. */
export async function answerCommand(deps: CliDeps, raw: unknown): Promise<OperatorAnswer> {
  const parsed = v.safeParse(commandSchema, raw);
  if (!parsed.success) return { ok: false, error: `unknown command\n${USAGE}` };
  try {
    return { ok: true, lines: await executeOrExplain(deps, parsed.output) };
  } catch (err) {
    if (err instanceof CliError) return { ok: false, error: err.message };
    throw err;
  }
}

/** Parses and runs one command on an open database (what the tests call). */
export async function runCommand(deps: CliDeps, argv: string[]): Promise<string[]> {
  return executeOrExplain(deps, await parseCommand(argv));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A backup says nothing on the socket until it is written: gigabytes of media take their time. */
const BACKUP_ANSWER_MS = 24 * 3600_000;

/**
 * Where a command runs. PostgreSQL (DATABASE_URL) takes any number of clients: the CLI opens it itself.
 * PGlite's files belong to one process: when a server runs, the command goes over its operator socket and
 * the server runs it on its own handle; when none does, the CLI opens the files itself, under the same lock
 * the server takes, so neither can start while the other has them (a server starting meanwhile waits).
 */
export async function runOperatorCommand(
  config: Pick<Config, 'dataDir' | 'databaseUrl'> & Partial<Config>,
  command: Command,
  { waitMs = 30_000 }: { waitMs?: number } = {},
): Promise<{ lines: string[]; via: 'socket' | 'database' }> {
  if (config.databaseUrl) return { lines: await direct(config, command), via: 'database' };
  const socket = operatorSocketPath(config.dataDir);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const answer = await sendOperatorCommand(socket, command, {
      ...(command.kind === 'backup' ? { timeoutMs: BACKUP_ANSWER_MS } : {}),
    });
    if (answer) {
      if (!answer.ok) throw new CliError(answer.error);
      return { lines: answer.lines, via: 'socket' };
    }
    try {
      return { lines: await direct(config, command), via: 'database' };
    } catch (err) {
      if (!(err instanceof DataDirBusyError)) throw err;
      // A server between opening the database and opening its socket, or another operator command.
      if (Date.now() >= deadline) {
        throw new CliError(
          `the database in ${config.dataDir} is in use by the ${err.holder.role} (pid ${err.holder.pid}), ` +
            `and nothing answers on ${socket}`,
        );
      }
      await sleep(250);
    }
  }
}

async function direct(given: Pick<Config, 'dataDir' | 'databaseUrl'> & Partial<Config>, command: Command) {
  // The server's defaults for what the caller left out (mail goes where the server's would).
  const config: Config = { ...loadConfig({}), ...given };
  const database = await openDatabase({ ...config, lock: { role: 'operator CLI' } });
  try {
    // A backup takes the database as it is: one taken before an upgrade must not be of the upgraded schema.
    if (command.kind !== 'backup') await database.migrate();
    return await executeOrExplain({ config, database, storage: createStorage(config) }, command);
  } finally {
    await database.close();
  }
}

/**
 * `restore <dir>`: never a command for a running server, whose database it would replace. It runs here, on a
 * data dir and database that must be empty (server/admin/backup.ts refuses any other).
 */
export async function runRestore(config: Parameters<typeof restore>[0], argv: readonly string[]) {
  const [dir, ...rest] = argv;
  if (!dir || rest.length > 0) throw new CliError(USAGE);
  return restore(config, path.resolve(dir));
}

// Run as a command only as itself: the compiled server (build/server/main.mjs) holds this module too, and there
// import.meta.url is the server's, which is also argv[1].
if (
  process.argv[1] &&
  /[\\/]cli\.[cm]?[jt]s$/.test(process.argv[1]) &&
  import.meta.url === pathToFileURL(process.argv[1]).href
) {
  let code = 0;
  try {
    const argv = process.argv.slice(2);
    const lines =
      argv[0] === 'restore'
        ? await runRestore(loadConfig(), argv.slice(1))
        : (await runOperatorCommand(loadConfig(), await parseCommand(argv))).lines;
    for (const line of lines) console.log(line);
  } catch (err) {
    console.error(err instanceof CliError ? err.message : err);
    code = 1;
  }
  process.exit(code);
}
