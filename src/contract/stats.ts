import * as v from 'valibot';

export const statsMessages = {
  invalidDate: 'Dates must look like YYYY-MM-DD.',
  tooEarly: 'The start date cannot be more than six months ago.',
  future: 'The end date cannot be in the future.',
  order: 'The start date must not be after the end date.',
} as const;

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
