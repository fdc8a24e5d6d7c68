import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../server/auth/tokens';
import * as t from '../../server/db/schema';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';

let ctx: TestContext;
let creatorId: number;
let userToken: string;
let userId: number;

beforeAll(async () => {
  // Reports are rate limited per IP; this file sends dozens from one address on purpose.
  ctx = await createTestContext({ config: { reportRateLimit: 10_000 } });
  const creator = await insertUser(ctx);
  creatorId = creator.id;
  const user = await insertUser(ctx, { type: 'user' });
  userId = user.id;
  userToken = await issueAccessToken(ctx.database.db, user.id, false);
});
afterAll(() => ctx.close());

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'POST', url, payload, headers });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const counters = async (id: number) => {
  const [row] = await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, id));
  return row;
};
const newVideo = () => insertVideo(ctx, { userId: creatorId });

describe('POST /v1/video-like', () => {
  it('likes once per viewer however often add is sent, and unlikes', async () => {
    const video = await newVideo();
    const guest = { video_id: video.id, type: 'add', guest_id: 'guest-aaaa-1111' };
    for (let i = 0; i < 3; i++) {
      const res = await post('/v1/video-like', guest);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ videoId: video.id, isLiked: true, likeCount: 1 });
    }
    const byUser = await post(
      '/v1/video-like',
      { video_id: String(video.id), type: 'add' },
      bearer(userToken),
    );
    expect(byUser.json().data.likeCount).toBe(2);
    const removed = await post('/v1/video-like', { ...guest, type: 'remove' });
    expect(removed.json().data).toEqual({ videoId: video.id, isLiked: false, likeCount: 1 });
    const again = await post('/v1/video-like', { ...guest, type: 'remove' });
    expect(again.json().data.likeCount).toBe(1);
    expect((await counters(video.id))?.likeCount).toBe(1);
    const rows = await ctx.database.db.select().from(t.videoLikes).where(eq(t.videoLikes.videoId, video.id));
    expect(rows.map((r) => r.viewerKey)).toEqual([`u:${userId}`]);
  });

  it('counts a replay of the same Idempotency-Key once, even after an unlike in between', async () => {
    const video = await newVideo();
    const headers = { 'idempotency-key': 'like-key-00000001' };
    const body = { video_id: video.id, type: 'add', guest_id: 'guest-bbbb-2222' };
    const first = await post('/v1/video-like', body, headers);
    for (let i = 0; i < 4; i++) {
      const res = await post('/v1/video-like', body, headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['idempotent-replayed']).toBe('true');
      expect(res.json()).toEqual(first.json());
    }
    expect((await counters(video.id))?.likeCount).toBe(1);
  });

  it('stays one like when the same viewer, or the same Idempotency-Key, arrives 5 times at once', async () => {
    const video = await newVideo();
    const body = { video_id: video.id, type: 'add', guest_id: 'guest-conc-0001' };
    const plain = await Promise.all(Array.from({ length: 5 }, () => post('/v1/video-like', body)));
    expect(plain.every((r) => r.statusCode === 200)).toBe(true);
    const keyed = { ...body, guest_id: 'guest-conc-0002' };
    const headers = { 'idempotency-key': 'like-conc-0000001' };
    const replays = await Promise.all(
      Array.from({ length: 5 }, () => post('/v1/video-like', keyed, headers)),
    );
    expect(replays.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect((await counters(video.id))?.likeCount).toBe(2);
  });

  it('keeps like_count and view_count equal to their rows when adds, removes and views arrive at once', async () => {
    const db = ctx.database.db;
    const video = await newVideo();
    const guests = ['guest-race-0001', 'guest-race-0002', 'guest-race-0003'];
    await Promise.all(
      guests.flatMap((guest_id) => [
        ...['add', 'remove', 'add', 'add', 'remove'].map((type) =>
          post('/v1/video-like', { video_id: video.id, type, guest_id }),
        ),
        ...[1, 2, 3].map(() => post('/v1/video-view', { video_id: video.id, guest_id })),
      ]),
    );
    const likes = await db.select().from(t.videoLikes).where(eq(t.videoLikes.videoId, video.id));
    const views = await db.select().from(t.videoViews).where(eq(t.videoViews.videoId, video.id));
    expect(views).toHaveLength(3);
    expect(await counters(video.id)).toMatchObject({ likeCount: likes.length, viewCount: views.length });
  });

  it('validates the payload and needs a viewer', async () => {
    const video = await newVideo();
    const missing = await post('/v1/video-like', { type: 'add', guest_id: 'guest-cccc-3333' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message).toBe('Missing video id.');
    const badType = await post('/v1/video-like', {
      video_id: video.id,
      type: 'love',
      guest_id: 'guest-c-3333',
    });
    expect(badType.json().errors.type).toEqual(['Type must be add or remove.']);
    const nobody = await post('/v1/video-like', { video_id: video.id, type: 'add' });
    expect(nobody.statusCode).toBe(422);
    expect(nobody.json().message).toBe('Missing guest id.');
    // A phone that kept a revoked token learns that its session ended (and may send again as a guest).
    const stale = await post(
      '/v1/video-like',
      { video_id: video.id, type: 'add' },
      { authorization: 'Bearer no-longer-valid-token' },
    );
    expect(stale.statusCode).toBe(401);
    expect(stale.json().message).toBe('Unauthenticated.');
  });

  it('refuses videos that are not public or are geo-blocked for the viewer', async () => {
    const hidden = await insertVideo(ctx, { userId: creatorId, status: 'processing' });
    const res = await post('/v1/video-like', {
      video_id: hidden.id,
      type: 'add',
      guest_id: 'guest-dddd-4444',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Video not found' });
    const blocker = await insertUser(ctx);
    await ctx.database.db.insert(t.geoBlocks).values({ userId: blocker.id, countryCode: 'DE' });
    const blocked = await insertVideo(ctx, { userId: blocker.id });
    const body = { video_id: blocked.id, type: 'add', guest_id: 'guest-dddd-4444' };
    expect((await post('/v1/video-like', body, { 'cf-ipcountry': 'DE' })).statusCode).toBe(404);
    expect((await post('/v1/video-like', body, { 'cf-ipcountry': 'FR' })).statusCode).toBe(200);
  });
});

describe('POST /v1/video-view', () => {
  it('counts one view per viewer per video within the window', async () => {
    const video = await newVideo();
    const guest = { video_id: video.id, guest_id: 'guest-eeee-5555' };
    expect((await post('/v1/video-view', guest)).json().data).toEqual({
      videoId: video.id,
      counted: true,
      viewCount: 1,
    });
    expect((await post('/v1/video-view', guest)).json().data.counted).toBe(false);
    await post('/v1/video-view', { video_id: video.id }, bearer(userToken));
    await post('/v1/video-view', { video_id: video.id, guest_id: 'guest-ffff-6666' });
    expect((await counters(video.id))?.viewCount).toBe(3);
    // Once the window has passed, the same viewer watching again is a new view.
    await ctx.database.db
      .update(t.videoViews)
      .set({ createdAt: new Date(Date.now() - 7 * 3600_000) })
      .where(eq(t.videoViews.viewerKey, 'g:guest-eeee-5555'));
    expect((await post('/v1/video-view', guest)).json().data).toMatchObject({ counted: true, viewCount: 4 });
  });

  it('counts 5 replays of one Idempotency-Key once, and concurrent views once', async () => {
    const video = await newVideo();
    const body = { video_id: video.id, guest_id: 'guest-gggg-7777' };
    const headers = { 'idempotency-key': 'view-key-00000001' };
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await post('/v1/video-view', body, headers));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect((await counters(video.id))?.viewCount).toBe(1);
    const other = { video_id: video.id, guest_id: 'guest-hhhh-8888' };
    await Promise.all(Array.from({ length: 5 }, () => post('/v1/video-view', other)));
    expect((await counters(video.id))?.viewCount).toBe(2);
  });

  it('writes a crowd of posts at once exactly: duplicates and replays of a key count once, each answer its own', async () => {
    const db = ctx.database.db;
    const videos = [await newVideo(), await newVideo()];
    const guests = Array.from({ length: 20 }, (_, i) => `guest-crowd-${String(i).padStart(4, '0')}`);
    // From its own address: the guest limits per address are not what this test is about.
    const send = (url: string, payload: object, key?: string) =>
      ctx.app.inject({
        method: 'POST',
        url,
        payload,
        remoteAddress: '10.17.0.1',
        headers: key ? { 'idempotency-key': key } : {},
      });
    const wave = (type: 'add' | 'remove') =>
      Promise.all(
        guests.flatMap((guest_id) =>
          videos.flatMap(({ id }) => {
            const like = { video_id: id, type, guest_id };
            const view = { video_id: id, guest_id };
            const likeKey = `${type}-${guest_id}-${id}`;
            return type === 'add' || guest_id.endsWith('0') || guest_id.endsWith('2')
              ? [
                  send('/v1/video-view', view),
                  send('/v1/video-view', view, `view-${guest_id}-${id}`),
                  send('/v1/video-view', view, `view-${guest_id}-${id}`),
                  send('/v1/video-like', like, likeKey),
                  send('/v1/video-like', like, likeKey),
                  send('/v1/video-like', like),
                ]
              : [];
          }),
        ),
      );
    const first = await wave('add');
    expect(first.map((r) => r.statusCode).every((s) => s === 200)).toBe(true);
    for (const { id } of videos) {
      const views = first.map((r) => r.json().data).filter((d) => d.videoId === id && 'counted' in d);
      // One counted view per guest, and each counted post told the count as it stood after it: 1 to 20.
      const counted = views.filter((d) => d.counted).map((d) => d.viewCount);
      expect(counted.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    }
    // Even the replays that arrived together with their first post answer exactly as it did.
    for (let i = 0; i < first.length; i += 6) {
      expect(first[i + 2]?.json()).toEqual(first[i + 1]?.json());
      expect(first[i + 4]?.json()).toEqual(first[i + 3]?.json());
    }
    // Guests ending in 0 or 2 (4 of them) unlike; then the first wave's like keys are replayed: they answer
    // what they answered and like nothing again.
    const second = await wave('remove');
    expect(second.map((r) => r.statusCode).every((s) => s === 200)).toBe(true);
    const replayed = await Promise.all(
      guests.map((guest_id) =>
        send(
          '/v1/video-like',
          { video_id: videos[0]?.id, type: 'add', guest_id },
          `add-${guest_id}-${videos[0]?.id}`,
        ),
      ),
    );
    expect(replayed.every((r) => r.headers['idempotent-replayed'] === 'true')).toBe(true);
    for (const { id } of videos) {
      const likes = await db.select().from(t.videoLikes).where(eq(t.videoLikes.videoId, id));
      const views = await db.select().from(t.videoViews).where(eq(t.videoViews.videoId, id));
      expect(likes).toHaveLength(16);
      expect(views).toHaveLength(20);
      expect(await counters(id)).toMatchObject({ likeCount: 16, viewCount: 20 });
    }
  });

  it('validates the video id', async () => {
    const res = await post('/v1/video-view', { video_id: 'abc', guest_id: 'guest-iiii-9999' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('Missing video id.');
    const gone = await post('/v1/video-view', { video_id: 999999, guest_id: 'guest-iiii-9999' });
    expect(gone.statusCode).toBe(404);
  });
});

describe('POST /v1/video-rating/rate', () => {
  it('is for users only; a re-rating replaces the first', async () => {
    const video = await newVideo();
    const guest = await post('/v1/video-rating/rate', {
      video_id: video.id,
      rating: 4,
      guest_id: 'guest-jjjj-0000',
    });
    expect(guest.statusCode).toBe(401);
    const first = await post('/v1/video-rating/rate', { video_id: video.id, rating: 4 }, bearer(userToken));
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ rating: 4, ratingCount: 1, ratingAverage: 4 });
    const again = await post('/v1/video-rating/rate', { video_id: video.id, rating: '2' }, bearer(userToken));
    expect(again.json().data).toMatchObject({ rating: 2, ratingCount: 1, ratingAverage: 2 });
    const other = await insertUser(ctx, { type: 'user' });
    const otherToken = await issueAccessToken(ctx.database.db, other.id, false);
    await post('/v1/video-rating/rate', { video_id: video.id, rating: 5 }, bearer(otherToken));
    expect(await counters(video.id)).toMatchObject({ ratingCount: 2, ratingSum: 7 });
  });

  it('refuses the creator and their studio manager, allows another creator', async () => {
    const [studio] = await ctx.database.db
      .insert(t.studios)
      .values({ name: 'S', keyHash: 'rate-studio' })
      .returning();
    const owner = await insertUser(ctx, { studioId: studio?.id, studioRole: 'member' });
    const manager = await insertUser(ctx, { studioId: studio?.id, studioRole: 'manager' });
    const stranger = await insertUser(ctx);
    const video = await insertVideo(ctx, { userId: owner.id });
    for (const person of [owner, manager]) {
      const token = await issueAccessToken(ctx.database.db, person.id, false);
      const res = await post('/v1/video-rating/rate', { video_id: video.id, rating: 5 }, bearer(token));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'You cannot rate your own video.' });
    }
    const token = await issueAccessToken(ctx.database.db, stranger.id, false);
    expect(
      (await post('/v1/video-rating/rate', { video_id: video.id, rating: 1 }, bearer(token))).statusCode,
    ).toBe(200);
    expect(await counters(video.id)).toMatchObject({ ratingCount: 1, ratingSum: 1 });
  });

  it('keeps rating_count and rating_sum equal to the rating rows when rates arrive at once', async () => {
    const db = ctx.database.db;
    const video = await newVideo();
    const others = [];
    for (let i = 0; i < 3; i++) {
      const other = await insertUser(ctx, { type: 'user' });
      others.push(bearer(await issueAccessToken(db, other.id, false)));
    }
    // Five first ratings by one user at once, and first ratings by three others alongside.
    const answers = await Promise.all([
      ...[1, 2, 3, 4, 5].map((rating) =>
        post('/v1/video-rating/rate', { video_id: video.id, rating }, bearer(userToken)),
      ),
      ...others.map((auth, i) => post('/v1/video-rating/rate', { video_id: video.id, rating: 5 - i }, auth)),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    const rows = await db.select().from(t.videoRatings).where(eq(t.videoRatings.videoId, video.id));
    expect(rows).toHaveLength(4);
    expect(await counters(video.id)).toMatchObject({
      ratingCount: rows.length,
      ratingSum: rows.reduce((sum, r) => sum + r.rating, 0),
    });
  });

  it('accepts only whole ratings from 1 to 5', async () => {
    const video = await newVideo();
    for (const rating of [0, 6, 2.5, 'x', null]) {
      const res = await post('/v1/video-rating/rate', { video_id: video.id, rating }, bearer(userToken));
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.rating).toEqual(['Choose a rating from 1 to 5.']);
    }
    const missing = await post('/v1/video-rating/rate', { rating: 3 }, bearer(userToken));
    expect(missing.json().message).toBe('Missing video id.');
  });
});

describe('POST /v1/report-video', () => {
  const valid = { reason: 'spam', message: 'Same clip posted ten times', guest_id: 'guest-kkkk-1111' };

  it('stores a guest report with its email and answers 201', async () => {
    const video = await newVideo();
    const res = await post('/v1/report-video', { ...valid, video_id: video.id, email: 'a@b.example' });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe('Report sent');
    const rows = await ctx.database.db.select().from(t.reports).where(eq(t.reports.videoId, video.id));
    expect(rows).toMatchObject([{ email: 'a@b.example', reason: 'spam', guestId: 'guest-kkkk-1111' }]);
  });

  it('answers every message of the spec', async () => {
    const video = await newVideo();
    const cases: [object, string, Record<string, string> | undefined][] = [
      [{ ...valid, email: 'a@b.example' }, 'Missing video id.', undefined],
      [{ ...valid, video_id: video.id }, 'Missing email.', undefined],
      [{ ...valid, video_id: video.id, email: '  ' }, 'Missing email.', undefined],
      [{ ...valid, video_id: video.id, email: 'not-an-email' }, 'Invalid email.', undefined],
      [
        { ...valid, video_id: video.id, email: 'x@y.example', reason: '' },
        'Please choose a reason.',
        undefined,
      ],
      [
        { ...valid, video_id: video.id, email: 'x@y.example', reason: 'boring' },
        'Please choose a reason.',
        undefined,
      ],
      [
        { ...valid, video_id: video.id, email: 'x@y.example', message: '   ' },
        'Description is required.',
        undefined,
      ],
      [
        { video_id: video.id, reason: 'spam', email: 'bad', message: 'm' },
        'Invalid email.',
        bearer(userToken),
      ],
    ];
    for (const [body, message, headers] of cases) {
      const res = await post('/v1/report-video', body, headers);
      expect(res.statusCode, message).toBe(422);
      expect(res.json().message).toBe(message);
    }
    const noDescription = await post(
      '/v1/report-video',
      { video_id: video.id, reason: 'spam' },
      bearer(userToken),
    );
    expect(noDescription.json().message).toBe('Description is required.');
  });

  it('lets a user report without an email, accepts every reason of the spec', async () => {
    const video = await newVideo();
    const reasons = [
      'innapropiate',
      'copyright',
      'wrong-hashtag',
      'spam',
      'hateful-content',
      'rape-sexual-assault',
    ];
    reasons.push('violence', 'death', 'deepfake', 'drugs', 'underage', 'consent', 'other');
    for (const reason of reasons) {
      const res = await post(
        '/v1/report-video',
        { video_id: video.id, reason, message: 'm' },
        bearer(userToken),
      );
      expect(res.statusCode).toBe(201);
    }
    const rows = await ctx.database.db.select().from(t.reports).where(eq(t.reports.videoId, video.id));
    expect(rows.length).toBe(13);
    expect(rows[0]?.userId).toBe(userId);
  });

  it('stores one report for 5 replays of one Idempotency-Key; 404 for unknown videos', async () => {
    const video = await newVideo();
    const body = { ...valid, video_id: video.id, email: 'a@b.example' };
    for (let i = 0; i < 5; i++) {
      const res = await post('/v1/report-video', body, { 'idempotency-key': 'report-key-0000001' });
      expect(res.statusCode).toBe(201);
    }
    const rows = await ctx.database.db.select().from(t.reports).where(eq(t.reports.videoId, video.id));
    expect(rows.length).toBe(1);
    expect((await post('/v1/report-video', { ...body, video_id: 987654 })).statusCode).toBe(404);
  });

  it("never answers one sender's Idempotency-Key with another's report: keys are per caller", async () => {
    const video = await newVideo();
    const { guest_id: _, ...anonymous } = valid;
    const body = { ...anonymous, video_id: video.id, email: 'a@b.example' };
    const key = { 'idempotency-key': 'shared-key-0000001' };
    const from = (remoteAddress: string) =>
      ctx.app.inject({ method: 'POST', url: '/v1/report-video', payload: body, headers: key, remoteAddress });
    const answers = [
      await post('/v1/report-video', { ...body, guest_id: 'guest-share-0001' }, key),
      await post('/v1/report-video', { ...body, guest_id: 'guest-share-0002' }, key),
      await post('/v1/report-video', body, { ...key, ...bearer(userToken) }),
      await from('203.0.113.1'),
      await from('203.0.113.2'),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(answers.some((r) => r.headers['idempotent-replayed'])).toBe(false);
    const rows = await ctx.database.db.select().from(t.reports).where(eq(t.reports.videoId, video.id));
    expect(rows.length).toBe(5);
    // The same caller again is still a replay.
    expect((await from('203.0.113.2')).headers['idempotent-replayed']).toBe('true');
  });
});
