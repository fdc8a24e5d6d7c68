// Real pg-boss on the test database: the delete call marks the video, the queued job removes files and row.
import fs from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../../server/auth/tokens';
import * as t from '../../server/db/schema';
import { cleanupVideo, mediaPathsOf, privatePathsOf, VIDEO_CLEANUP_QUEUE } from '../../server/media/cleanup';
import { newMediaKey, videoMediaDir } from '../../server/media/storage';
import { videoDeleteResponseSchema } from '../../src/contract';
import { createTestContext, insertUser, insertVideo, type TestContext } from './helpers';

let ctx: TestContext;
let owner: typeof t.users.$inferSelect;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  ctx = await createTestContext({ jobs: true });
  const db = ctx.database.db;
  const [studio, otherStudio] = await db
    .insert(t.studios)
    .values([
      { name: 'North', keyHash: 'hash-north' },
      { name: 'South', keyHash: 'hash-south' },
    ])
    .returning();
  owner = await insertUser(ctx, { studioId: studio?.id, studioRole: 'member' });
  const people = {
    owner,
    manager: await insertUser(ctx, { studioId: studio?.id, studioRole: 'manager' }),
    member: await insertUser(ctx, { studioId: studio?.id, studioRole: 'member' }),
    otherManager: await insertUser(ctx, { studioId: otherStudio?.id, studioRole: 'manager' }),
    otherCreator: await insertUser(ctx),
    user: await insertUser(ctx, { type: 'user' }),
  };
  for (const [name, person] of Object.entries(people))
    tokens[name] = await issueAccessToken(db, person.id, false);
});
afterAll(() => ctx.close());

/** A video with media and an original on disk; without a key, as rows from before folder keys are. */
async function videoWithFiles(mediaKey: string | null = null) {
  const video = await insertVideo(ctx, { userId: owner.id, mediaKey });
  const dir = videoMediaDir(video);
  await ctx.storage.ensure(`${dir}/540p`);
  await fs.writeFile(ctx.storage.abs(`${dir}/master.m3u8`), '#EXTM3U\n');
  await fs.writeFile(ctx.storage.abs(`${dir}/540p/seg_000.ts`), 'x');
  await ctx.storage.ensurePrivate(`originals/${video.id}`);
  await fs.writeFile(ctx.storage.privateAbs(`originals/${video.id}/source`), 'source');
  await ctx.database.db
    .update(t.videos)
    .set({
      playlistPath: `${dir}/master.m3u8`,
      thumbnailPath: `${dir}/thumb.jpg`,
      sourcePath: `originals/${video.id}/source`,
    })
    .where(eq(t.videos.id, video.id));
  return video.id;
}

const del = (id: number, token?: string) =>
  ctx.app.inject({
    method: 'GET',
    url: `/v1/videos/${id}/delete`,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
const exists = (relative: string, root: 'media' | 'private' = 'media') =>
  fs.access(root === 'media' ? ctx.storage.abs(relative) : ctx.storage.privateAbs(relative)).then(
    () => true,
    () => false,
  );
const statusOf = async (id: number) =>
  (await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, id)))[0]?.status;

describe('GET /v1/videos/{id}/delete', () => {
  it('refuses guests (401), plain users, other creators and other studios (403)', async () => {
    const id = await videoWithFiles();
    expect((await del(id)).statusCode).toBe(401);
    for (const name of ['user', 'otherCreator', 'member', 'otherManager']) {
      const res = await del(id, tokens[name]);
      expect(res.statusCode, name).toBe(403);
      expect(res.json()).toEqual({ message: 'This action is unauthorized.' });
    }
    expect(await statusOf(id)).toBe('approved');
    expect((await del(999999, tokens.owner)).json()).toEqual({ message: 'Video not found' });
  });

  it('marks the owner’s video deleting at once; the cleanup job then removes files and row', async () => {
    const id = await videoWithFiles();
    const res = await del(id, tokens.owner);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Video deleted successfully', data: { id, status: 'deleting' } });
    // The answer the profile screen parses (src/api/videos.ts) is the contract's shape.
    expect(v.is(videoDeleteResponseSchema, res.json())).toBe(true);
    // No worker yet: the video is already gone from lists but its files wait for the job.
    expect(await statusOf(id)).toBe('deleting');
    expect(await exists(`videos/${id}/master.m3u8`)).toBe(true);
    const feed = await ctx.app.inject({ method: 'GET', url: '/v1/videos?per_page=50' });
    expect(feed.json().data.map((x: { id: number }) => x.id)).not.toContain(id);
    const start = await ctx.app.inject({ method: 'GET', url: `/v1/videos/start/${id}` });
    expect(start.statusCode).toBe(404);

    const jobs = ctx.jobs;
    if (!jobs) throw new Error('jobs expected');
    await jobs.work<{ videoId: number }>(VIDEO_CLEANUP_QUEUE, ({ videoId }) =>
      cleanupVideo({ db: ctx.database.db, storage: ctx.storage }, videoId),
    );
    await jobs.idle(VIDEO_CLEANUP_QUEUE.name);
    expect(await statusOf(id)).toBeUndefined();
    expect(await exists(`videos/${id}`)).toBe(false);
    expect(await exists(`originals/${id}`, 'private')).toBe(false);
  });

  it('lets a manager of the creator’s studio delete it', async () => {
    const id = await videoWithFiles();
    expect((await del(id, tokens.manager)).statusCode).toBe(200);
    await ctx.jobs?.idle(VIDEO_CLEANUP_QUEUE.name);
    expect(await statusOf(id)).toBeUndefined();
  });

  it('removes the keyed folder of a video uploaded since folders carry a key', async () => {
    const key = newMediaKey();
    const id = await videoWithFiles(key);
    const dir = `videos/${id}-${key}`;
    expect(await exists(`${dir}/540p/seg_000.ts`)).toBe(true);
    const [row] = await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, id));
    if (!row) throw new Error('row expected');
    expect(mediaPathsOf(row).sort()).toEqual([dir, `${dir}/thumb.jpg`]);
    expect((await del(id, tokens.owner)).statusCode).toBe(200);
    await ctx.jobs?.idle(VIDEO_CLEANUP_QUEUE.name);
    expect(await statusOf(id)).toBeUndefined();
    expect(await exists(dir)).toBe(false);
    expect(await exists(`originals/${id}`, 'private')).toBe(false);
  });

  it('never lets a stale job remove a video that is not being deleted', async () => {
    const id = await videoWithFiles();
    await cleanupVideo({ db: ctx.database.db, storage: ctx.storage }, id);
    expect(await statusOf(id)).toBe('approved');
    expect(await exists(`videos/${id}/master.m3u8`)).toBe(true);
    const [row] = await ctx.database.db.select().from(t.videos).where(eq(t.videos.id, id));
    if (!row) throw new Error('row expected');
    expect(mediaPathsOf(row).sort()).toEqual([`videos/${id}`, `videos/${id}/thumb.jpg`].sort());
    expect(privatePathsOf(row).sort()).toEqual([`originals/${id}`, `originals/${id}/source`]);
  });
});
