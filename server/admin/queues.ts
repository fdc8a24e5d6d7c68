// What the console reads: the three queues (uploads to review, reported videos, identity checks), accounts
// and the dashboard's figures. Each queue is a walk of a partial index of its waiting rows (migration 0010),
// so its cost follows the page, not the size of the catalogue.
import { and, asc, desc, eq, getTableColumns, gt, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type {
  Account,
  AccountDetail,
  Dashboard,
  ReportGroup,
  ReviewItem,
  VerificationItem,
} from '../../src/contract/admin';
import type { Db } from '../db/client';
import { containing } from '../db/like';
import * as t from '../db/schema';
import { renditionName } from '../media/args';
import { UNPUBLISHED_AT } from '../media/pipeline';
import type { MediaStorage } from '../media/storage';

const iso = (d: Date) => d.toISOString();

const creatorColumns = {
  id: t.users.id,
  name: t.users.name,
  slug: t.users.slug,
  email: t.users.email,
  type: t.users.type,
  verification: t.users.verificationStatus,
  suspendedAt: t.users.suspendedAt,
};
const presentCreator = (c: Record<keyof typeof creatorColumns, unknown>) => ({
  id: c.id as number,
  name: c.name as string,
  slug: c.slug as string,
  email: c.email as string,
  type: c.type as 'user' | 'model' | 'channel',
  verification: c.verification as 'none' | 'pending' | 'rejected' | 'approved',
  suspended: c.suspendedAt !== null,
});

/** Waiting for review: playable, details sent (a title to judge), held back or public meanwhile. */
const waitingForReview = (): SQL =>
  and(
    inArray(t.videos.review, ['held', 'open']),
    eq(t.videos.status, 'approved'),
    lt(t.videos.publishAt, UNPUBLISHED_AT),
  ) as SQL;

/** Open reports of videos still out there: a video taken down or deleted closes its reports with it. */
const openReport = (): SQL =>
  and(
    eq(t.reports.status, 'open'),
    inArray(t.videos.status, ['approved', 'uploaded', 'preprocess', 'processing']),
  ) as SQL;

export async function reviewQueue(
  db: Db,
  storage: MediaStorage,
  page: { after?: { at: number; id: number } | undefined; limit: number },
): Promise<{ items: ReviewItem[]; last: { at: number; id: number } | undefined; more: boolean }> {
  const after = page.after
    ? or(
        gt(t.videos.reviewQueuedAt, new Date(page.after.at)),
        and(eq(t.videos.reviewQueuedAt, new Date(page.after.at)), gt(t.videos.id, page.after.id)),
      )
    : undefined;
  const rows = await db
    .select({ video: t.videos, creator: creatorColumns })
    .from(t.videos)
    .innerJoin(t.users, eq(t.users.id, t.videos.userId))
    .where(and(waitingForReview(), after))
    .orderBy(asc(t.videos.reviewQueuedAt), asc(t.videos.id))
    .limit(page.limit + 1);
  const shown = rows.slice(0, page.limit);
  const tags = await tagsOf(
    db,
    shown.map((r) => r.video.id),
  );
  const items = shown.map(({ video, creator }): ReviewItem => {
    const dir = video.playlistPath ? video.playlistPath.replace(/\/[^/]+$/, '') : undefined;
    return {
      id: video.id,
      title: video.title,
      slug: video.slug,
      tags: tags.get(video.id) ?? [],
      isNsfw: video.isNsfw,
      status: video.status,
      review: video.review === 'open' ? 'open' : 'held',
      duration: Math.round(video.durationSeconds),
      poster: storage.url(video.thumbnailPath),
      playlistUrl: storage.url(video.playlistPath),
      renditions: dir
        ? [...(video.renditions ?? [])]
            .sort((a, b) => a.height - b.height)
            .map((r) => ({
              height: Math.min(r.width, r.height),
              url: storage.url(`${dir}/${renditionName(r)}/index.m3u8`) ?? '',
            }))
        : [],
      publishAt: iso(video.publishAt),
      uploadedAt: iso(video.createdAt),
      queuedAt: iso(video.reviewQueuedAt ?? video.createdAt),
      creator: presentCreator(creator),
    };
  });
  const lastRow = shown[shown.length - 1]?.video;
  return {
    items,
    last: lastRow
      ? { at: (lastRow.reviewQueuedAt ?? lastRow.createdAt).getTime(), id: lastRow.id }
      : undefined,
    more: rows.length > page.limit,
  };
}

async function tagsOf(db: Db, videoIds: number[]): Promise<Map<number, string[]>> {
  if (videoIds.length === 0) return new Map();
  const rows = await db
    .select({ videoId: t.videoTags.videoId, name: t.tags.name })
    .from(t.videoTags)
    .innerJoin(t.tags, eq(t.tags.id, t.videoTags.tagId))
    .where(inArray(t.videoTags.videoId, videoIds))
    .orderBy(asc(t.videoTags.position));
  const byVideo = new Map<number, string[]>();
  for (const r of rows) byVideo.set(r.videoId, [...(byVideo.get(r.videoId) ?? []), r.name]);
  return byVideo;
}

/** Reported videos, most reported first (then the latest report first), each with its open reports. */
export async function reportGroups(
  db: Db,
  storage: MediaStorage,
  page: { offset: number; limit: number },
): Promise<{ groups: ReportGroup[]; more: boolean }> {
  const counted = await db
    .select({
      videoId: t.reports.videoId,
      count: sql<number>`count(*)::int`,
      latestAt: sql<Date>`max(${t.reports.createdAt})`,
    })
    .from(t.reports)
    .innerJoin(t.videos, eq(t.videos.id, t.reports.videoId))
    .where(openReport())
    .groupBy(t.reports.videoId)
    .orderBy(desc(sql`count(*)`), desc(sql`max(${t.reports.createdAt})`), desc(t.reports.videoId))
    .limit(page.limit + 1)
    .offset(page.offset);
  const shown = counted.slice(0, page.limit);
  if (shown.length === 0) return { groups: [], more: false };
  const ids = shown.map((g) => g.videoId);
  const [videos, reports] = await Promise.all([
    db
      .select({ video: t.videos, creator: creatorColumns })
      .from(t.videos)
      .innerJoin(t.users, eq(t.users.id, t.videos.userId))
      .where(inArray(t.videos.id, ids)),
    db
      .select({
        id: t.reports.id,
        videoId: t.reports.videoId,
        reason: t.reports.reason,
        message: t.reports.message,
        email: sql<
          string | null
        >`coalesce(${t.reports.email}, (select u.email from ${t.users} u where u.id = ${t.reports.userId}))`,
        createdAt: t.reports.createdAt,
      })
      .from(t.reports)
      .where(and(inArray(t.reports.videoId, ids), eq(t.reports.status, 'open')))
      .orderBy(desc(t.reports.createdAt)),
  ]);
  const videoById = new Map(videos.map((v) => [v.video.id, v]));
  const groups = shown.flatMap((g): ReportGroup[] => {
    const found = videoById.get(g.videoId);
    if (!found) return [];
    return [
      {
        video: {
          id: found.video.id,
          title: found.video.title,
          status: found.video.status,
          poster: storage.url(found.video.thumbnailPath),
          playlistUrl: storage.url(found.video.playlistPath),
          creator: presentCreator(found.creator),
        },
        count: g.count,
        latestAt: iso(new Date(g.latestAt)),
        reports: reports
          .filter((r) => r.videoId === g.videoId)
          .map((r) => ({
            id: r.id,
            reason: r.reason,
            message: r.message,
            email: r.email,
            createdAt: iso(r.createdAt),
          })),
      },
    ];
  });
  return { groups, more: counted.length > page.limit };
}

/** Pending identity checks, oldest first, with the creator's earlier refusals. */
export async function verificationQueue(
  db: Db,
  page: { after?: { at: number; id: number } | undefined; limit: number },
): Promise<{ items: VerificationItem[]; last: { at: number; id: number } | undefined; more: boolean }> {
  const r = t.verificationRequests;
  const after = page.after
    ? or(
        gt(r.createdAt, new Date(page.after.at)),
        and(eq(r.createdAt, new Date(page.after.at)), gt(r.id, page.after.id)),
      )
    : undefined;
  const rows = await db
    .select({ request: r, creator: creatorColumns })
    .from(r)
    .innerJoin(t.users, eq(t.users.id, r.userId))
    .where(and(eq(r.status, 'pending'), after))
    .orderBy(asc(r.createdAt), asc(r.id))
    .limit(page.limit + 1);
  const shown = rows.slice(0, page.limit);
  const userIds = shown.map((row) => row.creator.id as number);
  const previous = userIds.length
    ? await db
        .select({ userId: r.userId, createdAt: r.createdAt, status: r.status, reason: r.rejectReason })
        .from(r)
        .where(and(inArray(r.userId, userIds), sql`${r.status} <> 'pending'`))
        .orderBy(desc(r.createdAt))
    : [];
  const items = shown.map(
    ({ request, creator }): VerificationItem => ({
      id: request.id,
      createdAt: iso(request.createdAt),
      creator: presentCreator(creator),
      legalName: request.legalName,
      stageName: request.stageName,
      address: request.address,
      country: request.country,
      gender: request.gender,
      dateOfBirth: request.dateOfBirth,
      age: request.age,
      identification: request.identification,
      identificationId: request.identificationId,
      previous: previous
        .filter((p) => p.userId === request.userId)
        .map((p) => ({ createdAt: iso(p.createdAt), status: p.status, reason: p.reason })),
    }),
  );
  const lastRow = shown[shown.length - 1]?.request;
  return {
    items,
    last: lastRow ? { at: lastRow.createdAt.getTime(), id: lastRow.id } : undefined,
    more: rows.length > page.limit,
  };
}

const videoCount = sql<number>`(select count(*)::int from ${t.videos} v where v.user_id = ${t.users}.id and v.status <> 'deleting')`;
const openReportCount = sql<number>`(select count(*)::int from ${t.reports} r join ${t.videos} v on v.id = r.video_id where v.user_id = ${t.users}.id and r.status = 'open')`;

const presentAccount = (
  row: typeof t.users.$inferSelect & { videos: number; openReports: number },
): Account => ({
  ...presentCreator({ ...row, verification: row.verificationStatus }),
  username: row.username,
  createdAt: iso(row.createdAt),
  suspendedAt: row.suspendedAt ? iso(row.suspendedAt) : null,
  suspensionReason: row.suspensionReason,
  videos: row.videos,
  openReports: row.openReports,
});

/**
 * Accounts whose email, name, username or slug contains `q` (any case), or the account of that id; newest
 * first. Without `q`, every account.
 */
export async function searchAccounts(
  db: Db,
  query: { q?: string | undefined; before?: number | undefined; limit: number },
): Promise<{ accounts: Account[]; more: boolean }> {
  const q = query.q?.trim();
  const like = q ? containing(q) : undefined;
  const match = like
    ? or(
        ilike(t.users.email, like),
        ilike(t.users.name, like),
        ilike(t.users.username, like),
        ilike(t.users.slug, like),
        /^\d{1,9}$/.test(q ?? '') ? eq(t.users.id, Number(q)) : undefined,
      )
    : undefined;
  const rows = await db
    .select({ ...getTableColumns(t.users), videos: videoCount, openReports: openReportCount })
    .from(t.users)
    .where(and(match, query.before !== undefined ? lt(t.users.id, query.before) : undefined))
    .orderBy(desc(t.users.id))
    .limit(query.limit + 1);
  return { accounts: rows.slice(0, query.limit).map(presentAccount), more: rows.length > query.limit };
}

export async function accountDetail(
  db: Db,
  storage: MediaStorage,
  id: number,
): Promise<AccountDetail | undefined> {
  const [row] = await db
    .select({ ...getTableColumns(t.users), videos: videoCount, openReports: openReportCount })
    .from(t.users)
    .where(eq(t.users.id, id));
  if (!row) return undefined;
  const videos = await db
    .select()
    .from(t.videos)
    .where(and(eq(t.videos.userId, id), sql`${t.videos.status} <> 'deleting'`))
    .orderBy(desc(t.videos.id))
    .limit(12);
  return {
    ...presentAccount(row),
    recentVideos: videos.map((v) => ({
      id: v.id,
      title: v.title,
      status: v.status,
      review: v.review,
      poster: storage.url(v.tilePath ?? v.thumbnailPath),
      createdAt: iso(v.createdAt),
    })),
  };
}

/** How long each queue is, and since when its oldest item waits. */
export async function dashboard(db: Db, uploadReview: 'before' | 'after'): Promise<Dashboard> {
  const figure = (row: { count: number; oldest: Date | string | null } | undefined) => ({
    count: row?.count ?? 0,
    oldestAt: row?.oldest ? iso(new Date(row.oldest)) : null,
  });
  const [review, reports, verifications, suspended] = await Promise.all([
    db
      .select({
        count: sql<number>`count(*)::int`,
        oldest: sql<Date | null>`min(${t.videos.reviewQueuedAt})`,
      })
      .from(t.videos)
      .where(waitingForReview()),
    db
      .select({
        count: sql<number>`count(distinct ${t.reports.videoId})::int`,
        oldest: sql<Date | null>`min(${t.reports.createdAt})`,
      })
      .from(t.reports)
      .innerJoin(t.videos, eq(t.videos.id, t.reports.videoId))
      .where(openReport()),
    db
      .select({
        count: sql<number>`count(*)::int`,
        oldest: sql<Date | null>`min(${t.verificationRequests.createdAt})`,
      })
      .from(t.verificationRequests)
      .where(eq(t.verificationRequests.status, 'pending')),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(t.users)
      .where(sql`${t.users.suspendedAt} is not null`),
  ]);
  return {
    review: figure(review[0]),
    reports: figure(reports[0]),
    verifications: figure(verifications[0]),
    suspendedAccounts: suspended[0]?.count ?? 0,
    uploadReview,
  };
}
