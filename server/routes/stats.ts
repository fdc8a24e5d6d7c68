// Creator statistics (spec §3 'Profile stats'). Lifetime totals come from the denormalised counters;
// the range figures are counted from the event rows themselves, by UTC day, both ends inclusive.
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
import type { AppDeps } from '../deps';
import { creatorsOnly, invalid, type Operation, unauthenticated } from '../http/doc';
import { HttpError } from '../http/errors';
import { parse } from '../http/validate';
import { requireUser } from '../http/viewer';
import { creatorStats } from '../stats/queries';

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
    const stats = await creatorStats(db, user.id, start, end);
    const viewsOn = new Map(stats.daily.views.map((d) => [d.day, d.n]));
    const likesOn = new Map(stats.daily.likes.map((d) => [d.day, d.n]));
    // Every day of the range, quiet ones as zeros, so a chart's x axis is the calendar.
    const daily: { date: string; views: number; likes: number }[] = [];
    for (let date = range.from; date <= range.to; date = addDays(date, 1)) {
      daily.push({ date, views: viewsOn.get(date) ?? 0, likes: likesOn.get(date) ?? 0 });
    }
    return {
      lifetime: {
        total_videos: stats.lifetime.videos,
        total_likes: stats.lifetime.likes,
        total_views: stats.lifetime.views,
        total_followers: stats.lifetime.followers,
      },
      range: {
        from: range.from,
        to: range.to,
        video_views: stats.range.views,
        video_likes: stats.range.likes,
        new_followers: stats.range.newFollowers,
        link_clicks: stats.range.clicks.map((c) => ({ name: c.name, clicks: c.clicks })),
        daily,
      },
    };
  });
}
