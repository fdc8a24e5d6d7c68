// Creator statistics (spec §3 'Profile stats'). Lifetime totals come from the denormalised counters;
// the range figures are counted from the event rows themselves, by UTC day, both ends inclusive.
import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  addDays,
  STATS_DEFAULT_DAYS,
  sixMonthsAgo,
  statsInputSchema,
  statsMessages,
  statsResponseSchema,
  utcDay,
} from '../../src/contract';
import { requireCreator } from '../auth/permissions';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import { creatorsOnly, invalid, type Operation, unauthenticated } from '../http/doc';
import { HttpError } from '../http/errors';
import { parse } from '../http/validate';
import { requireUser } from '../http/viewer';

const DEFAULT_DAYS = STATS_DEFAULT_DAYS;
const dayString = utcDay;

export { sixMonthsAgo };

function rangeOf(input: { from?: string | undefined; to?: string | undefined }, now: Date) {
  const today = dayString(now);
  const to = input.to ?? today;
  const from = input.from ?? addDays(to, -(DEFAULT_DAYS - 1));
  const errors: Record<string, string[]> = {};
  const earliest = sixMonthsAgo(now);
  if (input.from !== undefined && from < earliest) errors.from = [statsMessages.tooEarly];
  if (to > today) errors.to = [statsMessages.future];
  if (input.to !== undefined && input.from === undefined && to < earliest)
    errors.to = [statsMessages.tooEarly];
  if (!errors.from && !errors.to && from > to) errors.from = [statsMessages.order];
  const first = Object.values(errors)[0]?.[0];
  if (first) throw new HttpError(422, first, errors);
  // A default start may fall before the limit when only `to` is given: clamp it rather than fail.
  return { from: from < earliest ? earliest : from, to };
}

export default async function statsRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  const statsDoc: Operation = {
    summary: 'Creator statistics',
    auth: 'required',
    body: statsInputSchema,
    description:
      `No body: lifetime totals and the last ${DEFAULT_DAYS} days. \`from\`/\`to\` are UTC days, both ` +
      'inclusive, between six months ago and today, `from` <= `to`; otherwise 422 with the field at fault. ' +
      'Lifetime totals leave out videos being deleted; `link_clicks` lists every link of the creator, ' +
      'clicked or not; `daily` has one entry per day of the range, in order, days without activity as zeros.',
    responses: {
      200: { description: 'Totals and range.', schema: statsResponseSchema },
      401: unauthenticated,
      403: creatorsOnly,
      422: invalid,
    },
  };
  app.post('/v1/profile/stats', { config: { doc: statsDoc } }, async (request) => {
    const user = requireCreator(await requireUser(request, deps));
    const range = rangeOf(parse(statsInputSchema, request.body), new Date());
    const start = new Date(`${range.from}T00:00:00Z`);
    const end = new Date(`${addDays(range.to, 1)}T00:00:00Z`);
    const ownVideo = sql`${t.videos.userId} = ${user.id}`;
    const utcDay = (column: typeof t.videoViews.createdAt | typeof t.videoLikes.createdAt) =>
      sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
    const [[lifetime], [followers], [views], [likes], [newFollowers], clicks, viewDays, likeDays] =
      await Promise.all([
        db
          .select({
            videos: sql<number>`count(*)::int`,
            likes: sql<number>`coalesce(sum(${t.videos.likeCount}), 0)::int`,
            views: sql<number>`coalesce(sum(${t.videos.viewCount}), 0)::int`,
          })
          .from(t.videos)
          .where(and(ownVideo, sql`${t.videos.status} <> 'deleting'`)),
        db.select({ n: sql<number>`count(*)::int` }).from(t.follows).where(eq(t.follows.modelId, user.id)),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(t.videoViews)
          .innerJoin(t.videos, eq(t.videos.id, t.videoViews.videoId))
          .where(and(ownVideo, gte(t.videoViews.createdAt, start), lt(t.videoViews.createdAt, end))),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(t.videoLikes)
          .innerJoin(t.videos, eq(t.videos.id, t.videoLikes.videoId))
          .where(and(ownVideo, gte(t.videoLikes.createdAt, start), lt(t.videoLikes.createdAt, end))),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(t.follows)
          .where(
            and(
              eq(t.follows.modelId, user.id),
              gte(t.follows.createdAt, start),
              lt(t.follows.createdAt, end),
            ),
          ),
        // Every link of the creator, clicked or not, so the client can show zeros.
        db
          .select({
            name: t.links.name,
            clicks: sql<number>`count(${t.linkClicks.id})::int`,
          })
          .from(t.links)
          .leftJoin(
            t.linkClicks,
            and(
              eq(t.linkClicks.linkId, t.links.id),
              // The counted clicks only: a viewer's repeats within the window are kept, not counted.
              eq(t.linkClicks.counted, true),
              gte(t.linkClicks.createdAt, start),
              lt(t.linkClicks.createdAt, end),
            ),
          )
          .where(eq(t.links.userId, user.id))
          .groupBy(t.links.id, t.links.name, t.links.position)
          .orderBy(t.links.position, t.links.id),
        db
          .select({ day: utcDay(t.videoViews.createdAt), n: sql<number>`count(*)::int` })
          .from(t.videoViews)
          .innerJoin(t.videos, eq(t.videos.id, t.videoViews.videoId))
          .where(and(ownVideo, gte(t.videoViews.createdAt, start), lt(t.videoViews.createdAt, end)))
          .groupBy(utcDay(t.videoViews.createdAt)),
        db
          .select({ day: utcDay(t.videoLikes.createdAt), n: sql<number>`count(*)::int` })
          .from(t.videoLikes)
          .innerJoin(t.videos, eq(t.videos.id, t.videoLikes.videoId))
          .where(and(ownVideo, gte(t.videoLikes.createdAt, start), lt(t.videoLikes.createdAt, end)))
          .groupBy(utcDay(t.videoLikes.createdAt)),
      ]);
    const viewsOn = new Map(viewDays.map((d) => [d.day, d.n]));
    const likesOn = new Map(likeDays.map((d) => [d.day, d.n]));
    // Every day of the range, quiet ones as zeros, so a chart's x axis is the calendar.
    const daily: { date: string; views: number; likes: number }[] = [];
    for (let date = range.from; date <= range.to; date = addDays(date, 1)) {
      daily.push({ date, views: viewsOn.get(date) ?? 0, likes: likesOn.get(date) ?? 0 });
    }
    return {
      lifetime: {
        total_videos: lifetime?.videos ?? 0,
        total_likes: lifetime?.likes ?? 0,
        total_views: lifetime?.views ?? 0,
        total_followers: followers?.n ?? 0,
      },
      range: {
        from: range.from,
        to: range.to,
        video_views: views?.n ?? 0,
        video_likes: likes?.n ?? 0,
        new_followers: newFollowers?.n ?? 0,
        link_clicks: clicks.map((c) => ({ name: c.name, clicks: c.clicks })),
        daily,
      },
    };
  });
}
