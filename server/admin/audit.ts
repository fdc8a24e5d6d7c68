// The audit log: every operator decision and every view of an identity document, written in the same
// transaction as the decision itself (a decision that rolls back leaves no line, a line never lacks its
// decision). Rows are only ever inserted; migration 0010's trigger refuses an UPDATE or DELETE.
import { and, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { AuditAction, AuditEntry } from '../../src/contract/admin';
import type { Db, Tx } from '../db/client';
import * as t from '../db/schema';

/** Who acts: an operator of the console, or the CLI (whoever holds the server's shell). */
export interface Actor {
  operatorId: number | null;
  /** The operator's email, or `cli`. */
  name: string;
  ip?: string | undefined;
}

export const CLI_ACTOR: Actor = { operatorId: null, name: 'cli' };

export interface AuditLine {
  action: AuditAction;
  targetType: 'video' | 'user' | 'verification' | 'operator';
  targetId: number | string;
  reason?: string | null | undefined;
  detail?: Record<string, unknown> | undefined;
}

export async function appendAudit(db: Db | Tx, actor: Actor, line: AuditLine): Promise<void> {
  await db.insert(t.auditLog).values({
    operatorId: actor.operatorId,
    actor: actor.name,
    action: line.action,
    targetType: line.targetType,
    targetId: String(line.targetId),
    reason: line.reason ?? null,
    detail: line.detail ?? null,
    ip: actor.ip ?? null,
  });
}

export interface AuditFilter {
  operatorId?: number | undefined;
  action?: string | undefined;
  /** Dates (YYYY-MM-DD), both ends included, in UTC. */
  from?: string | undefined;
  to?: string | undefined;
}

function filtersOf(filter: AuditFilter): SQL[] {
  const where: SQL[] = [];
  if (filter.operatorId !== undefined) where.push(eq(t.auditLog.operatorId, filter.operatorId));
  if (filter.action) where.push(eq(t.auditLog.action, filter.action));
  if (filter.from) where.push(gte(t.auditLog.createdAt, new Date(`${filter.from}T00:00:00Z`)));
  if (filter.to)
    where.push(lt(t.auditLog.createdAt, sql`${`${filter.to}T00:00:00Z`}::timestamptz + interval '1 day'`));
  return where;
}

const present = (row: typeof t.auditLog.$inferSelect): AuditEntry => ({
  id: row.id,
  at: row.createdAt.toISOString(),
  actor: row.actor,
  operatorId: row.operatorId,
  action: row.action,
  targetType: row.targetType,
  targetId: row.targetId,
  reason: row.reason,
  detail: row.detail ?? null,
});

/** Newest first, `limit` lines below the id `before` (the cursor of the page before). */
export async function listAudit(
  db: Db,
  filter: AuditFilter,
  page: { before?: number | undefined; limit: number },
): Promise<{ entries: AuditEntry[]; more: boolean }> {
  const where = filtersOf(filter);
  if (page.before !== undefined) where.push(lt(t.auditLog.id, page.before));
  const rows = await db
    .select()
    .from(t.auditLog)
    .where(and(...where))
    .orderBy(desc(t.auditLog.id))
    .limit(page.limit + 1);
  return { entries: rows.slice(0, page.limit).map(present), more: rows.length > page.limit };
}

const CSV_COLUMNS = [
  'id',
  'at',
  'actor',
  'operator_id',
  'action',
  'target_type',
  'target_id',
  'reason',
  'detail',
];

/**
 * A field as RFC 4180 wants it, and defused for spreadsheets: a cell that starts with = + - @ (or a tab or
 * return) would run as a formula when an operator opens the export (OWASP's CSV injection), so it gets a quote.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The whole filtered log as CSV, oldest first, read a thousand lines at a time. */
export async function* auditCsv(db: Db, filter: AuditFilter): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  let after = 0;
  for (;;) {
    const rows = await db
      .select()
      .from(t.auditLog)
      .where(and(...filtersOf(filter), sql`${t.auditLog.id} > ${after}`))
      .orderBy(t.auditLog.id)
      .limit(1000);
    if (rows.length === 0) return;
    let chunk = '';
    for (const row of rows) {
      const e = present(row);
      chunk += `${[e.id, e.at, e.actor, e.operatorId, e.action, e.targetType, e.targetId, e.reason, e.detail]
        .map(csvField)
        .join(',')}\r\n`;
    }
    yield chunk;
    after = rows[rows.length - 1]?.id ?? after;
  }
}
