// Operator commands: `npm run admin -- <command>`. Each command is an exported function on a database
// handle, so the tests run exactly what the operator runs. While a server runs on PGlite, the command is
// run by that server (see runOperatorCommand).
import fs from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { and, asc, desc, eq } from 'drizzle-orm';
import * as v from 'valibot';
import { hashToken, newToken } from './auth/tokens';
import { type Config, loadConfig } from './config';
import { type Db, openDatabase } from './db/client';
import { DataDirBusyError } from './db/lock';
import * as t from './db/schema';
import { type OperatorAnswer, operatorSocketPath, sendOperatorCommand } from './operator';

export class CliError extends Error {}

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
      folder: t.verificationRequests.frontPicturePath,
    })
    .from(t.verificationRequests)
    .innerJoin(t.users, eq(t.users.id, t.verificationRequests.userId))
    .where(eq(t.verificationRequests.status, 'pending'))
    .orderBy(asc(t.verificationRequests.createdAt));
}

/** Decides the user's latest pending request and sets the account status to match. */
export async function reviewVerification(db: Db, userId: number, decision: 'approved' | 'rejected') {
  return db.transaction(async (tx) => {
    const [request] = await tx
      .select({ id: t.verificationRequests.id })
      .from(t.verificationRequests)
      .where(and(eq(t.verificationRequests.userId, userId), eq(t.verificationRequests.status, 'pending')))
      .orderBy(desc(t.verificationRequests.createdAt))
      .limit(1);
    if (!request) throw new CliError(`user ${userId} has no pending verification request`);
    await tx
      .update(t.verificationRequests)
      .set({ status: decision, reviewedAt: new Date() })
      .where(eq(t.verificationRequests.id, request.id));
    await tx
      .update(t.users)
      .set({ verificationStatus: decision, updatedAt: new Date() })
      .where(eq(t.users.id, userId));
    return request.id;
  });
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
  verifications list
  verifications approve <userId>
  verifications reject <userId>
  studio create <name>
  studio manager <userId> <studioId>
  page set <slug> <file.html> [title]`;

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
  }),
  v.object({ kind: v.literal('studio-create'), name: v.pipe(v.string(), v.maxLength(200)) }),
  v.object({ kind: v.literal('studio-manager'), userId: positive, studioId: positive }),
  v.object({
    kind: v.literal('page-set'),
    slug: v.string(),
    html: v.string(),
    title: v.optional(v.string()),
  }),
]);
export type Command = v.InferOutput<typeof commandSchema>;

/** The words typed after `npm run admin --` as a command; a file named there is read here. */
export async function parseCommand(argv: readonly string[]): Promise<Command> {
  const [area, action, ...rest] = argv;
  switch (`${area} ${action}`) {
    case 'verifications list':
      return { kind: 'verifications-list' };
    case 'verifications approve':
    case 'verifications reject':
      return {
        kind: 'verification-review',
        userId: id(rest[0], 'userId'),
        decision: action === 'approve' ? 'approved' : 'rejected',
      };
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
export async function executeCommand(db: Db, command: Command): Promise<string[]> {
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
      await reviewVerification(db, command.userId, command.decision);
      return [`user ${command.userId}: verification ${command.decision}`];
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
  }
}

/** The server's side of the operator socket: a command from the wire, checked, run, answered. */
export async function answerCommand(db: Db, raw: unknown): Promise<OperatorAnswer> {
  const parsed = v.safeParse(commandSchema, raw);
  if (!parsed.success) return { ok: false, error: `unknown command\n${USAGE}` };
  try {
    return { ok: true, lines: await executeCommand(db, parsed.output) };
  } catch (err) {
    if (err instanceof CliError) return { ok: false, error: err.message };
    throw err;
  }
}

/** Parses and runs one command on an open database (what the tests call). */
export async function runCommand(db: Db, argv: string[]): Promise<string[]> {
  return executeCommand(db, await parseCommand(argv));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Where a command runs. PostgreSQL (DATABASE_URL) takes any number of clients: the CLI opens it itself.
 * PGlite's files belong to one process: when a server runs, the command goes over its operator socket and
 * the server runs it on its own handle; when none does, the CLI opens the files itself, under the same lock
 * the server takes, so neither can start while the other has them (a server starting meanwhile waits).
 */
export async function runOperatorCommand(
  config: Pick<Config, 'dataDir' | 'databaseUrl'>,
  command: Command,
  { waitMs = 30_000 }: { waitMs?: number } = {},
): Promise<{ lines: string[]; via: 'socket' | 'database' }> {
  if (config.databaseUrl) return { lines: await direct(config, command), via: 'database' };
  const socket = operatorSocketPath(config.dataDir);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const answer = await sendOperatorCommand(socket, command);
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

async function direct(config: Pick<Config, 'dataDir' | 'databaseUrl'>, command: Command) {
  const database = await openDatabase({ ...config, lock: { role: 'operator CLI' } });
  try {
    await database.migrate();
    return await executeCommand(database.db, command);
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  let code = 0;
  try {
    const command = await parseCommand(process.argv.slice(2));
    const { lines } = await runOperatorCommand(loadConfig(), command);
    for (const line of lines) console.log(line);
  } catch (err) {
    console.error(err instanceof CliError ? err.message : err);
    code = 1;
  }
  process.exit(code);
}
