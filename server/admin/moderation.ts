// What operators decide: uploads (approve, reject), reports (dismiss, take down, take down and suspend),
// identity checks (approve, reject) and accounts (suspend, lift). Each decision and its audit line are one
// transaction; the mail to the creator goes after it commits. A decision on an item someone else already
// decided is refused with the same words for everyone (`notWaiting`), never applied twice.
import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import {
  adminMessages as am,
  type DocumentKind,
  suspendReasons,
  verificationRejectReasons,
  videoRejectReasons,
} from '../../src/contract/admin';
import type { Db, Tx } from '../db/client';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import { sendMail } from '../mail/mailer';
import type { LocalCopy } from '../media/storage';
import { DomainError } from '../util/domain-error';
import { contentChanged } from '../videos/freshness';
import { type Actor, appendAudit } from './audit';
import { nextIdentity, nextReview, type ReviewEvent, type ReviewState } from './review-machine';

type Deps = Pick<AppDeps, 'config' | 'database' | 'storage' | 'jobs'>;

/** The words the creator reads: the reason's sentence, then the operator's own note if any. */
export const reasonText = (sentence: string, note: string | undefined) =>
  note?.trim() ? `${sentence} ${note.trim()}` : sentence;

const notWaiting = () => new DomainError('conflict', am.notWaiting);
const noVideo = () => new DomainError('not_found', 'No such video.');

async function videoWithOwner(db: Db | Tx, videoId: number) {
  const [row] = await db
    .select({ video: t.videos, owner: { id: t.users.id, email: t.users.email, name: t.users.name } })
    .from(t.videos)
    .innerJoin(t.users, eq(t.users.id, t.videos.userId))
    .where(eq(t.videos.id, videoId));
  return row;
}

/** Every open report of the video closes with a decision on it (`actioned`) or a dismissal. */
async function closeReports(
  tx: Tx,
  actor: Actor,
  videoId: number,
  status: 'dismissed' | 'actioned',
  note: string | null,
): Promise<number> {
  const closed = await tx
    .update(t.reports)
    .set({ status, resolvedAt: new Date(), resolvedBy: actor.operatorId, resolutionNote: note })
    .where(and(eq(t.reports.videoId, videoId), eq(t.reports.status, 'open')))
    .returning({ id: t.reports.id });
  return closed.length;
}

/**
 * Moves a video's review by `event`, from the state it is in now (read under a row lock, so two operators
 * cannot both decide it), and writes what the machine answers. Undefined when the move is not allowed.
 */
async function moveReview(tx: Tx, videoId: number, event: ReviewEvent, statusReason?: string) {
  const [row] = await tx
    .select({ review: t.videos.review, status: t.videos.status })
    .from(t.videos)
    .where(eq(t.videos.id, videoId))
    .for('update');
  if (!row) throw noVideo();
  // Only a video whose media plays can be decided: one still transcoding, failed or being deleted cannot.
  if (row.status !== 'approved') return undefined;
  const next = nextReview(row.review as ReviewState, event);
  if (!next) return undefined;
  const now = new Date();
  await tx
    .update(t.videos)
    .set({
      review: next.review,
      reviewedAt: now,
      updatedAt: now,
      ...(next.status ? { status: next.status, statusReason: statusReason ?? null } : {}),
      // Approved out of the hold: it goes out now (or at its scheduled time), as new, not as of its upload.
      ...(row.review === 'held' && next.review === 'approved'
        ? { publishAt: sql`greatest(${t.videos.publishAt}, now())` }
        : {}),
    })
    .where(eq(t.videos.id, videoId));
  return { from: row.review, ...next };
}

async function mailOwner(deps: Deps, owner: { email: string; name: string }, subject: string, body: string) {
  await sendMail(deps as AppDeps, {
    to: owner.email,
    subject,
    text: `Hi ${owner.name},\n\n${body}\n\nShortCams\n`,
    link: `${deps.config.publicUrl}/account`,
  });
}

const quoted = (title: string) => (title ? `“${title}”` : 'without a title');

// ---- uploads ---------------------------------------------------------------------------------------------

export async function approveVideo(deps: Deps, actor: Actor, videoId: number): Promise<void> {
  const { db } = deps.database;
  const found = await videoWithOwner(db, videoId);
  if (!found) throw noVideo();
  await db.transaction(async (tx) => {
    const moved = await moveReview(tx, videoId, { type: 'approve' });
    if (!moved) throw notWaiting();
    await appendAudit(tx, actor, {
      action: 'video.approve',
      targetType: 'video',
      targetId: videoId,
      detail: { title: found.video.title, creatorId: found.owner.id, was: moved.from },
    });
  });
  contentChanged(db);
  await mailOwner(
    deps,
    found.owner,
    'Your video was approved',
    `your video ${quoted(found.video.title)} was approved. It is public now, or at the time you scheduled.\n\n` +
      `${deps.config.publicUrl}/video/${videoId}`,
  );
}

type VideoDecision = { reason: keyof typeof videoRejectReasons; note?: string | undefined };

export async function rejectVideo(
  deps: Deps,
  actor: Actor,
  videoId: number,
  decision: VideoDecision,
): Promise<void> {
  await decideAgainst(deps, actor, videoId, decision, { type: 'reject' }, 'video.reject');
}

/** A reported video out of every list, with the reason mailed to its owner; `suspend` also suspends them. */
export async function takeDown(
  deps: Deps,
  actor: Actor,
  videoId: number,
  decision: VideoDecision & { suspend?: boolean },
): Promise<void> {
  const owner = await decideAgainst(deps, actor, videoId, decision, { type: 'takeDown' }, 'video.take_down');
  if (decision.suspend) {
    await suspendAccount(deps, actor, owner.id, {
      reason: decision.reason === 'underage' ? 'underage' : 'repeat-violations',
      note: reasonText(videoRejectReasons[decision.reason], decision.note),
    }).catch((err: unknown) => {
      // Already suspended by someone else meanwhile: the take-down stands, and so does their suspension.
      if (!(err instanceof DomainError && err.kind === 'conflict')) throw err;
    });
  }
}

async function decideAgainst(
  deps: Deps,
  actor: Actor,
  videoId: number,
  decision: VideoDecision,
  event: ReviewEvent,
  action: 'video.reject' | 'video.take_down',
) {
  const { db } = deps.database;
  const found = await videoWithOwner(db, videoId);
  if (!found) throw noVideo();
  const reason = reasonText(videoRejectReasons[decision.reason], decision.note);
  await db.transaction(async (tx) => {
    const moved = await moveReview(tx, videoId, event, reason);
    if (!moved) throw notWaiting();
    const reports = await closeReports(tx, actor, videoId, 'actioned', reason);
    await appendAudit(tx, actor, {
      action,
      targetType: 'video',
      targetId: videoId,
      reason,
      detail: {
        title: found.video.title,
        creatorId: found.owner.id,
        code: decision.reason,
        reportsClosed: reports,
      },
    });
  });
  contentChanged(db);
  await mailOwner(
    deps,
    found.owner,
    action === 'video.reject' ? 'Your video was not approved' : 'Your video was taken down',
    `your video ${quoted(found.video.title)} ${action === 'video.reject' ? 'was not approved' : 'was taken down'}.\n\n` +
      `Why: ${reason}\n\nYou can see it with this reason under your videos. If you think this is a mistake, ` +
      'answer this mail or write to support.',
  );
  return found.owner;
}

// ---- reports ---------------------------------------------------------------------------------------------

export async function dismissReports(deps: Deps, actor: Actor, videoId: number, note: string): Promise<void> {
  const { db } = deps.database;
  await db.transaction(async (tx) => {
    const closed = await closeReports(tx, actor, videoId, 'dismissed', note);
    if (closed === 0) throw notWaiting();
    await appendAudit(tx, actor, {
      action: 'report.dismiss',
      targetType: 'video',
      targetId: videoId,
      reason: note,
      detail: { reportsClosed: closed },
    });
  });
}

// ---- identity checks -------------------------------------------------------------------------------------

async function pendingRequest(db: Db | Tx, requestId: number) {
  const [row] = await db
    .select({
      request: t.verificationRequests,
      owner: { id: t.users.id, email: t.users.email, name: t.users.name, status: t.users.verificationStatus },
    })
    .from(t.verificationRequests)
    .innerJoin(t.users, eq(t.users.id, t.verificationRequests.userId))
    .where(eq(t.verificationRequests.id, requestId));
  if (!row) throw new DomainError('not_found', 'No such verification request.');
  return row;
}

export async function decideVerification(
  deps: Deps,
  actor: Actor,
  requestId: number,
  decision:
    | { approve: true }
    | { approve: false; reason: keyof typeof verificationRejectReasons; note?: string | undefined },
): Promise<void> {
  const { db } = deps.database;
  const { request, owner } = await pendingRequest(db, requestId);
  const event = decision.approve ? 'approve' : 'reject';
  const next = nextIdentity(request.status, event);
  // A request is only ever pending, approved or rejected: `none` is an account's state, never a request's.
  if (next !== 'approved' && next !== 'rejected') throw notWaiting();
  const reason = decision.approve
    ? null
    : reasonText(verificationRejectReasons[decision.reason], decision.note);
  await db.transaction(async (tx) => {
    const decided = await tx
      .update(t.verificationRequests)
      .set({ status: next, reviewedAt: new Date(), reviewedBy: actor.operatorId, rejectReason: reason })
      .where(and(eq(t.verificationRequests.id, requestId), eq(t.verificationRequests.status, 'pending')))
      .returning({ id: t.verificationRequests.id });
    if (decided.length === 0) throw notWaiting();
    await tx
      .update(t.users)
      .set({ verificationStatus: next, updatedAt: new Date() })
      .where(eq(t.users.id, owner.id));
    await appendAudit(tx, actor, {
      action: decision.approve ? 'verification.approve' : 'verification.reject',
      targetType: 'verification',
      targetId: requestId,
      reason,
      detail: { userId: owner.id, ...(decision.approve ? {} : { code: decision.reason }) },
    });
  });
  await mailOwner(
    deps,
    owner,
    decision.approve ? 'Your identity is verified' : 'Your identity check was not approved',
    decision.approve
      ? 'we checked your documents and your identity is verified. You can upload videos now.'
      : `we could not approve your identity check.\n\nWhy: ${reason}\n\nYou can send it again under Account > ` +
          `Settings > Account validation:\n\n${deps.config.publicUrl}/account/settings/validation`,
  );
}

const documentColumn: Record<
  DocumentKind,
  'frontPicturePath' | 'backPicturePath' | 'facePicturePath' | 'signaturePath'
> = {
  front: 'frontPicturePath',
  back: 'backPicturePath',
  face: 'facePicturePath',
  signature: 'signaturePath',
};

/**
 * One of a request's images, for an operator's eyes only: the view is in the audit log before a byte leaves.
 * The caller releases the copy once sent.
 */
export async function openDocument(
  deps: Deps,
  actor: Actor,
  requestId: number,
  kind: DocumentKind,
): Promise<LocalCopy> {
  const { request } = await pendingRequest(deps.database.db, requestId);
  await appendAudit(deps.database.db, actor, {
    action: 'verification.view_document',
    targetType: 'verification',
    targetId: requestId,
    detail: { document: kind, userId: request.userId },
  });
  return deps.storage.openPrivate(request[documentColumn[kind]]);
}

// ---- accounts --------------------------------------------------------------------------------------------

export async function suspendAccount(
  deps: Deps,
  actor: Actor,
  userId: number,
  input: { reason: keyof typeof suspendReasons; note?: string | undefined },
): Promise<void> {
  const { db } = deps.database;
  const reason = reasonText(suspendReasons[input.reason], input.note);
  const user = await db.transaction(async (tx) => {
    const [suspended] = await tx
      .update(t.users)
      .set({ suspendedAt: new Date(), suspensionReason: reason, updatedAt: new Date() })
      .where(and(eq(t.users.id, userId), isNull(t.users.suspendedAt)))
      .returning({ id: t.users.id, email: t.users.email, name: t.users.name });
    if (!suspended) {
      const [exists] = await tx.select({ id: t.users.id }).from(t.users).where(eq(t.users.id, userId));
      throw exists
        ? new DomainError('conflict', am.alreadySuspended)
        : new DomainError('not_found', 'No such account.');
    }
    // Signed out everywhere at once; every list leaves their profile and videos out from this commit on.
    await tx
      .update(t.accessTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(t.accessTokens.userId, userId), isNull(t.accessTokens.revokedAt)));
    await tx.update(t.videos).set({ creatorSuspended: true }).where(eq(t.videos.userId, userId));
    await appendAudit(tx, actor, {
      action: 'account.suspend',
      targetType: 'user',
      targetId: userId,
      reason,
      detail: { code: input.reason },
    });
    return suspended;
  });
  contentChanged(db);
  await mailOwner(
    deps,
    user,
    'Your account is suspended',
    `your ShortCams account is suspended: you cannot sign in, and your profile and videos are not shown.\n\n` +
      `Why: ${reason}\n\nIf you think this is a mistake, answer this mail.`,
  );
}

export async function unsuspendAccount(
  deps: Deps,
  actor: Actor,
  userId: number,
  note: string,
): Promise<void> {
  const { db } = deps.database;
  const user = await db.transaction(async (tx) => {
    const [lifted] = await tx
      .update(t.users)
      .set({ suspendedAt: null, suspensionReason: null, updatedAt: new Date() })
      .where(and(eq(t.users.id, userId), isNotNull(t.users.suspendedAt)))
      .returning({ id: t.users.id, email: t.users.email, name: t.users.name });
    if (!lifted) throw new DomainError('conflict', am.notSuspended);
    await tx.update(t.videos).set({ creatorSuspended: false }).where(eq(t.videos.userId, userId));
    await appendAudit(tx, actor, {
      action: 'account.unsuspend',
      targetType: 'user',
      targetId: userId,
      reason: note || null,
    });
    return lifted;
  });
  contentChanged(db);
  await mailOwner(
    deps,
    user,
    'Your account is active again',
    'your ShortCams account is active again: you can sign in.',
  );
}
