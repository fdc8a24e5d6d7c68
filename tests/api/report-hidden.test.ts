// POST /v1/report-video on a video nobody may see answers exactly as for a video that does not exist, so
// that reports cannot be used to learn which ids are held for review, scheduled, failed or being deleted.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { createTestContext, insertUser, insertVideo, NO_RATE_LIMITS, type TestContext } from './helpers';
import { bearer } from './social-helpers';

let ctx: TestContext;
let creatorId: number;

beforeAll(async () => {
  ctx = await createTestContext({ config: NO_RATE_LIMITS });
  creatorId = (await insertUser(ctx)).id;
});
afterAll(() => ctx.close());

const report = (videoId: number, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'POST',
    url: '/v1/report-video',
    payload: {
      video_id: videoId,
      reason: 'spam',
      message: 'Posted ten times',
      email: 'reporter@example.test',
      guest_id: 'guest-hidden-0001',
    },
    headers,
  });
const reportsOf = (videoId: number) =>
  ctx.database.db.select().from(t.reports).where(eq(t.reports.videoId, videoId));

describe('POST /v1/report-video on a video that is not public', () => {
  const future = new Date(Date.now() + 7 * 24 * 3600_000);
  const hidden: [string, Partial<typeof t.videos.$inferInsert>][] = [
    ['held for review', { review: 'held' }],
    ['scheduled for later', { publishAt: future }],
    ['being deleted', { status: 'deleting' }],
    ['in error', { status: 'error', statusReason: 'The file is not a video.' }],
    ['still processing', { status: 'processing' }],
    ['of a suspended creator', { creatorSuspended: true }],
  ];

  it.each(hidden)('answers a video %s exactly as a missing one, and stores nothing', async (_, values) => {
    const video = await insertVideo(ctx, { userId: creatorId, ...values });
    const missing = await report(2_000_000_000);
    expect(missing.statusCode).toBe(404);
    for (const headers of [{}, await bearer(ctx, (await insertUser(ctx, { type: 'user' })).id)]) {
      const res = await report(video.id, headers);
      expect(res.statusCode).toBe(missing.statusCode);
      expect(res.json()).toEqual(missing.json());
    }
    expect(await reportsOf(video.id)).toEqual([]);
  });

  it('still takes a report of a public video', async () => {
    const video = await insertVideo(ctx, { userId: creatorId });
    const res = await report(video.id);
    expect(res.statusCode).toBe(201);
    expect(await reportsOf(video.id)).toHaveLength(1);
  });
});
