// Discover's weekly groups read counters kept on the video row (server/videos/weekly.ts): what a viewer
// sees there must follow the likes and views of the last 7 days, through likes, unlikes and time passing.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { expireWeekly } from '../../server/videos/weekly';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';

let ctx: TestContext;
let creatorId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  creatorId = (await insertUser(ctx, { gender: 'm' })).id;
});
afterAll(() => ctx.close());

const post = (url: string, payload: object) => ctx.app.inject({ method: 'POST', url, payload });
const like = (videoId: number, guest: string, type: 'add' | 'remove' = 'add') =>
  post('/v1/video-like', { video_id: videoId, type, guest_id: guest });
const counts = async (id: number) => {
  const [row] = await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, id));
  return {
    likes: row?.likeCount,
    views: row?.viewCount,
    weekLikes: row?.weekLikeCount,
    weekViews: row?.weekViewCount,
  };
};
const group = async (slug: string) => {
  const res = await ctx.app.inject({ method: 'GET', url: `/v1/discover/category/${slug}/videos` });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: { id: number }[] }).data.map((v) => v.id);
};

describe('weekly counts', () => {
  it('count the likes and views posted this week, and an unlike takes its like off', async () => {
    const video = await insertVideo(ctx, { userId: creatorId, title: 'this week' });
    for (const guest of ['guest-week-0001', 'guest-week-0002'])
      expect((await like(video.id, guest)).statusCode).toBe(200);
    const view = await post('/v1/video-view', { video_id: video.id, guest_id: 'guest-week-0001' });
    expect(view.json().data.counted).toBe(true);
    expect(await counts(video.id)).toEqual({ likes: 2, views: 1, weekLikes: 2, weekViews: 1 });
    expect(await group('most-liked-this-week')).toContain(video.id);
    expect(await group('most-viewed-this-week')).toContain(video.id);

    await like(video.id, 'guest-week-0001', 'remove');
    await like(video.id, 'guest-week-0002', 'remove');
    expect(await counts(video.id)).toEqual({ likes: 0, views: 1, weekLikes: 0, weekViews: 1 });
    expect(await group('most-liked-this-week')).not.toContain(video.id);
  });

  it('take off the rows that leave the window, once, while the all-time counts keep them', async () => {
    const db = ctx.database.db;
    const video = await insertVideo(ctx, { userId: creatorId, title: 'last week' });
    await like(video.id, 'guest-aged-0001');
    await like(video.id, 'guest-aged-0002');
    await post('/v1/video-view', { video_id: video.id, guest_id: 'guest-aged-0001' });
    await post('/v1/video-view', { video_id: video.id, guest_id: 'guest-aged-0002' });
    expect(await counts(video.id)).toEqual({ likes: 2, views: 2, weekLikes: 2, weekViews: 2 });

    // Two days pass since the window last moved: the window began 9 days ago, one like and one view are
    // 8 days old (counted, and now out of the week), the others 6 days old (still in it).
    await db.update(t.weeklyWindow).set({ countedAfter: sql`now() - interval '9 days'` });
    const age = (table: typeof t.videoLikes | typeof t.videoViews, guest: string, days: number) =>
      db
        .update(table)
        .set({ createdAt: sql`now() - make_interval(days => ${days})` })
        .where(eq(table.guestId, guest));
    await age(t.videoLikes, 'guest-aged-0001', 8);
    await age(t.videoViews, 'guest-aged-0001', 8);
    await age(t.videoLikes, 'guest-aged-0002', 6);
    await age(t.videoViews, 'guest-aged-0002', 6);

    expect(await expireWeekly(db)).toBe(2);
    expect(await counts(video.id)).toEqual({ likes: 2, views: 2, weekLikes: 1, weekViews: 1 });
    // Run again (the next minute, or a second node): nothing is taken off twice.
    expect(await expireWeekly(db)).toBe(0);
    expect(await counts(video.id)).toEqual({ likes: 2, views: 2, weekLikes: 1, weekViews: 1 });
    const [window] = await db
      .select({ behind: sql<boolean>`${t.weeklyWindow.countedAfter} <= now() - interval '7 days'` })
      .from(t.weeklyWindow);
    expect(window?.behind).toBe(true);

    // The old like was already taken off this week's count: its unlike must not take it off again.
    await like(video.id, 'guest-aged-0001', 'remove');
    expect(await counts(video.id)).toEqual({ likes: 1, views: 2, weekLikes: 1, weekViews: 1 });
    await like(video.id, 'guest-aged-0002', 'remove');
    expect(await counts(video.id)).toEqual({ likes: 0, views: 2, weekLikes: 0, weekViews: 1 });
    expect(await group('most-viewed-this-week')).toContain(video.id);
    expect(await group('most-liked-this-week')).not.toContain(video.id);
    expect(await group('most-viewed-all-time')).toContain(video.id);
  });
});
