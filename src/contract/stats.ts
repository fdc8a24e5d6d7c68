import * as v from 'valibot';

export const statsMessages = {
  title: 'Profile statistics',
  /** Spec §4: the range's length, 'Last N day(s)'. */
  lastDays: (n: number) => `Last ${n} ${n === 1 ? 'day' : 'days'}`,
  invalidDate: 'Dates must look like YYYY-MM-DD.',
  tooEarly: 'The start date cannot be more than six months ago.',
  future: 'The end date cannot be in the future.',
  order: 'The start date must not be after the end date.',
} as const;

/** UTC calendar day of `d`, as the server counts days. */
export const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/** The earliest day a range may start: the same calendar day six months ago (UTC). */
export function sixMonthsAgo(now: Date): string {
  return utcDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 6, now.getUTCDate())));
}

/** `day` (YYYY-MM-DD) moved by `n` days. */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return utcDay(d);
}

/** Days from `from` to `to`, both included. */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

export const STATS_DEFAULT_DAYS = 30;

const day = v.pipe(
  v.string(statsMessages.invalidDate),
  v.isoDate(statsMessages.invalidDate),
  v.check((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), statsMessages.invalidDate),
);

/**
 * POST /v1/profile/stats. No body: the last 30 days. Bounds (six months ago .. today, UTC) depend on the
 * clock, so the server checks them; the order of from and to is checked here.
 */
export const statsInputSchema = v.pipe(
  v.object({ from: v.optional(day), to: v.optional(day) }),
  v.forward(
    v.check((i) => !i.from || !i.to || i.from <= i.to, statsMessages.order),
    ['from'],
  ),
);
export type StatsInput = v.InferOutput<typeof statsInputSchema>;

export const statsResponseSchema = v.object({
  lifetime: v.object({
    total_videos: v.number(),
    total_likes: v.number(),
    total_views: v.number(),
    total_followers: v.number(),
  }),
  range: v.object({
    from: v.string(),
    to: v.string(),
    video_views: v.number(),
    video_likes: v.number(),
    new_followers: v.number(),
    link_clicks: v.array(v.object({ name: v.string(), clicks: v.number() })),
    /** One entry per UTC day from `from` to `to`, in order, zeros included: the chart's data. */
    daily: v.array(v.object({ date: v.string(), views: v.number(), likes: v.number() })),
  }),
});
export type StatsResponse = v.InferOutput<typeof statsResponseSchema>;
