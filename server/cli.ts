// Operator commands: `npm run admin -- <command>`. Each command is an exported function on a database
// handle, so the tests run exactly what the operator runs.
import fs from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { and, asc, desc, eq } from 'drizzle-orm';
import { hashToken, newToken } from './auth/tokens';
import type { Db } from './db/client';
import * as t from './db/schema';
import { openRuntime } from './runtime';

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

/** Runs one command; returns the lines to print. */
export async function runCommand(db: Db, argv: string[]): Promise<string[]> {
  const [area, action, ...rest] = argv;
  switch (`${area} ${action}`) {
    case 'verifications list': {
      const rows = await listVerifications(db);
      if (rows.length === 0) return ['no pending verification requests'];
      return rows.map(
        (r) =>
          `user ${r.userId} @${r.username} <${r.email}> "${r.legalName}" as "${r.stageName}", ${r.country}, age ${r.age}, ${r.identification}, ${r.submittedAt.toISOString()}`,
      );
    }
    case 'verifications approve':
    case 'verifications reject': {
      const userId = id(rest[0], 'userId');
      await reviewVerification(db, userId, action === 'approve' ? 'approved' : 'rejected');
      return [`user ${userId}: verification ${action === 'approve' ? 'approved' : 'rejected'}`];
    }
    case 'studio create': {
      const studio = await createStudio(db, rest.join(' '));
      return [`studio ${studio.id} "${studio.name}" created`, `join key (shown only now): ${studio.key}`];
    }
    case 'studio manager': {
      const userId = id(rest[0], 'userId');
      const studioId = id(rest[1], 'studioId');
      await makeStudioManager(db, userId, studioId);
      return [`user ${userId} now manages studio ${studioId}`];
    }
    case 'page set': {
      const [slug, file, ...title] = rest;
      if (!slug || !file) throw new CliError(USAGE);
      await setPage(db, slug, await fs.readFile(file, 'utf8'), title.length ? title.join(' ') : undefined);
      return [`page ${slug} saved`];
    }
    default:
      throw new CliError(USAGE);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runtime = await openRuntime({ runWorkers: false });
  let code = 0;
  try {
    for (const line of await runCommand(runtime.database.db, process.argv.slice(2))) console.log(line);
  } catch (err) {
    console.error(err instanceof CliError ? err.message : err);
    code = 1;
  } finally {
    await runtime.close();
  }
  process.exit(code);
}
