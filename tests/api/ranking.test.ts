// The home feed ranks from a few hundred candidates instead of scoring every video (server/videos/ranking.ts,
// topRanked): its pages must be exactly those of the full ranking, on a catalogue larger than the candidates.
import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as t from '../../server/db/schema';
import { rankScore } from '../../server/videos/ranking';
import { publicVideo } from '../../server/videos/visibility';
import { createTestContext, insertUser, type TestContext } from './helpers';

let ctx: TestContext;
let creator: number;

beforeAll(async () => {
  ctx = await createTestContext();
  creator = (await insertUser(ctx)).id;
  // 400 videos over 30 days with counters that do not follow age, so neither end alone gives the top.
  await ctx.database.executeSql(
    `insert into videos (user_id, slug, title, status, duration_seconds, playlist_path, thumbnail_path,
       publish_at, like_count, view_count, rating_count, rating_sum)
     select $1::int, 'r-' || g, 'R ' || g, 'approved', 8, 'v/m.m3u8', 'v/t.jpg',
       now() - ((g * 7919 % 43200) || ' minutes')::interval, (g * 31) % 97, (g * 17) % 1000, g % 3, (g % 3) * (1 + g % 5)
     from generate_series(1, 400) g`,
    [creator],
  );
});
afterAll(() => ctx.close());

const atOf = (next: string) => {
  const cursor = new URL(next, 'http://x').searchParams.get('cursor') ?? '';
  return new Date((JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { at: number }).at);
};

async function expectFullRanking() {
  const served: number[] = [];
  let url: string | null = '/v1/videos?per_page=25';
  let at: Date | undefined;
  for (let page = 0; page < 4 && url; page++) {
    const body = (await ctx.app.inject({ method: 'GET', url })).json() as {
      data: { id: number }[];
      links: { next: string | null };
    };
    served.push(...body.data.map((v) => v.id));
    url = body.links.next;
    at ??= url ? atOf(url) : undefined;
  }
  if (!at) throw new Error('no cursor');
  const full = await ctx.database.db
    .select({ id: t.videos.id })
    .from(t.videos)
    .where(publicVideo())
    .orderBy(desc(rankScore(at)), desc(t.videos.id))
    .limit(100);
  expect(served).toEqual(full.map((r) => r.id));
}

describe('home feed ranking from candidates', () => {
  it('serves the pages of the full ranking', async () => {
    await expectFullRanking();
  });

  it('still does when the best video is neither among the newest nor among the best engaged', async () => {
    // 130 brand-new clips nobody liked and 150 month-old hits fill both candidate lists; a day-old clip
    // with a good start outranks them all, and only the bound (then the full ranking) finds it.
    await ctx.database.executeSql(
      `insert into videos (user_id, slug, title, status, duration_seconds, playlist_path, thumbnail_path,
         publish_at, like_count)
       select $1::int, 'n-' || g, 'N ' || g, 'approved', 8, 'v/m.m3u8', 'v/t.jpg', now() - interval '1 minute', 0
       from generate_series(1, 130) g
       union all
       select $1::int, 'o-' || g, 'O ' || g, 'approved', 8, 'v/m.m3u8', 'v/t.jpg', now() - interval '30 days', 100000 + g
       from generate_series(1, 150) g
       union all
       select $1::int, 'day', 'Day', 'approved', 8, 'v/m.m3u8', 'v/t.jpg', now() - interval '24 hours', 1000`,
      [creator],
    );
    await expectFullRanking();
  });
});
