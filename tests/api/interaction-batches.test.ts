// Likes and views posted together are written in one transaction (server/videos/interaction-writes.ts). When
// that transaction fails, as when one post's video was deleted between its check and the write, every other
// post of the batch must still be written, once, and answered as if it had come alone.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { type Interaction, writeInteraction } from '../../server/videos/interaction-writes';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';

let ctx: TestContext;
let creatorId: number;

beforeAll(async () => {
  ctx = await createTestContext();
  creatorId = (await insertUser(ctx)).id;
});
afterAll(() => ctx.close());

const op = (kind: 'like' | 'view', videoId: number, guest: string): Interaction => ({
  kind,
  ...(kind === 'like' ? { add: true } : {}),
  videoId,
  viewerKey: `g:${guest}`,
  userId: null,
  guestId: guest,
  claim: undefined,
});
const rows = async (table: typeof t.videoLikes | typeof t.videoViews, videoId: number) =>
  (await ctx.database.db.select().from(table).where(eq(table.videoId, videoId))).length;

describe('a batch of likes and views that fails', () => {
  it('is written post by post: the bad post fails alone, the others count once each', async () => {
    const first = await insertVideo(ctx, { userId: creatorId, title: 'first' });
    const second = await insertVideo(ctx, { userId: creatorId, title: 'second' });
    const gone = await insertVideo(ctx, { userId: creatorId, title: 'deleted meanwhile' });
    await ctx.database.db.delete(t.videos).where(eq(t.videos.id, gone.id));

    // Posted in one turn of the event loop: one batch, whose like row for the deleted video breaks its
    // foreign key and with it the whole transaction.
    const posts = [
      op('like', first.id, 'batch-0001'),
      op('view', first.id, 'batch-0001'),
      op('like', gone.id, 'batch-0002'),
      op('like', second.id, 'batch-0002'),
      op('view', second.id, 'batch-0003'),
      op('like', first.id, 'batch-0003'),
    ];
    const outcomes = await Promise.allSettled(posts.map((p) => writeInteraction(ctx.database.db, p)));

    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    const data = outcomes.map((o) =>
      o.status === 'fulfilled' ? (o.value.body as { data: Record<string, unknown> }).data : null,
    );
    // Each answer is the count as it stood after that post, as if the posts had come one by one.
    expect(data[0]).toEqual({ videoId: first.id, isLiked: true, likeCount: 1 });
    expect(data[1]).toEqual({ videoId: first.id, counted: true, viewCount: 1 });
    expect(data[3]).toEqual({ videoId: second.id, isLiked: true, likeCount: 1 });
    expect(data[4]).toEqual({ videoId: second.id, counted: true, viewCount: 1 });
    expect(data[5]).toEqual({ videoId: first.id, isLiked: true, likeCount: 2 });

    const [a] = await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, first.id));
    const [b] = await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, second.id));
    expect([a?.likeCount, a?.viewCount, a?.weekLikeCount, a?.weekViewCount]).toEqual([2, 1, 2, 1]);
    expect([b?.likeCount, b?.viewCount, b?.weekLikeCount, b?.weekViewCount]).toEqual([1, 1, 1, 1]);
    expect([await rows(t.videoLikes, first.id), await rows(t.videoViews, first.id)]).toEqual([2, 1]);
    expect([await rows(t.videoLikes, second.id), await rows(t.videoViews, second.id)]).toEqual([1, 1]);
    expect(await rows(t.videoLikes, gone.id)).toBe(0);
  });
});
