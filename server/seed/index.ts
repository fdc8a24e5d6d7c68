import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { tagSlug } from '../../src/contract/upload';
import { ageOn } from '../../src/contract/verification';
import { hashPassword } from '../auth/password';
import type { Database, Db } from '../db/client';
import * as t from '../db/schema';
import type { Jobs } from '../jobs/boss';
import { DEMO_MEDIA_QUEUE, generateStill } from '../media/demo';
import { ensureHouseInstream } from '../media/house-ads';
import { stillPattern } from '../media/patterns';
import { liveJobsOf, UNFINISHED } from '../media/pipeline';
import { type MediaStorage, newMediaKey } from '../media/storage';
import { slugify } from '../util/slug';
import {
  demoCategories,
  demoCreators,
  demoEmail,
  demoPages,
  demoPassword,
  demoTags,
  demoTitle,
  demoUsers,
  demoWebcamSites,
  videoOwners,
} from './content';

const STATE_KEY = 'demo-seed';
type SeedState = 'rows' | 'stills';

interface SeedDeps {
  database: Database;
  storage: MediaStorage;
  jobs: Jobs;
  log: (msg: string) => void;
}

/** Deterministic pseudo-random numbers, so that every fresh install shows the same demo world. */
const rand = (seed: number) => {
  const x = Math.sin(seed * 9301 + 49297) * 233280;
  return x - Math.floor(x);
};

export const demoLogins = () => [
  { role: 'verified model', email: demoEmail(demoCreators[0]?.username ?? ''), password: demoPassword },
  {
    role: 'channel',
    email: demoEmail(demoCreators.find((c) => c.type === 'channel')?.username ?? ''),
    password: demoPassword,
  },
  { role: 'user', email: demoEmail(demoUsers[0]?.username ?? ''), password: demoPassword },
];

async function readState(db: Db): Promise<SeedState | undefined> {
  const [row] = await db.select().from(t.appMeta).where(eq(t.appMeta.key, STATE_KEY));
  return row?.value as SeedState | undefined;
}

async function writeState(db: Db, state: SeedState) {
  await db
    .insert(t.appMeta)
    .values({ key: STATE_KEY, value: state })
    .onConflictDoUpdate({ target: t.appMeta.key, set: { value: state, updatedAt: new Date() } });
}

/**
 * Seeds demo content into an empty database. Each step records its completion, so a start that was
 * interrupted picks up where it stopped; video media is produced by durable jobs that survive restarts.
 * Returns the number of demo videos still waiting for their media.
 */
export async function seedDemo(deps: SeedDeps, opts: { videoCount: number }): Promise<number> {
  const { db } = deps.database;
  let state = await readState(db);
  if (!state) {
    const [{ count } = { count: 0 }] = await db.select({ count: sql<number>`count(*)::int` }).from(t.users);
    // A database with users but no seed marker belongs to someone: never mix demo rows into it.
    if (count > 0) return 0;
    deps.log('seeding demo content…');
    await insertRows(db, opts.videoCount);
    state = 'rows';
  }
  if (state === 'rows') {
    await generateStills(deps);
    state = 'stills';
  }
  const pending = await enqueuePendingMedia(deps);
  // The demo's ads.json names this clip; made while the job workers make the videos.
  await ensureHouseInstream(deps.storage, deps.log);
  return pending;
}

async function insertRows(db: Db, videoCount: number) {
  const passwordHash = await hashPassword(demoPassword);
  const now = Date.now();
  await db.transaction(async (tx) => {
    const sites = await tx
      .insert(t.webcamSites)
      .values(demoWebcamSites.map((s, position) => ({ ...s, position })))
      .returning();
    const siteId = new Map(sites.map((s) => [s.slug, s.id]));

    const creators = await tx
      .insert(t.users)
      .values(
        demoCreators.map((c) => ({
          type: c.type,
          name: c.name,
          username: c.username,
          slug: c.username,
          email: demoEmail(c.username),
          passwordHash,
          emailVerifiedAt: new Date(now),
          description: c.description,
          color: c.color ?? null,
          gender: c.gender,
          phoneNumber: '+1 555 0100',
          country: 'US',
          isLive: c.live,
          verificationStatus: c.verified,
          isDemo: true,
        })),
      )
      .returning();
    const creatorId = new Map(creators.map((c) => [c.username, c.id]));

    await tx.insert(t.users).values(
      demoUsers.map((u) => ({
        type: 'user' as const,
        name: u.name,
        username: u.username,
        slug: u.username,
        email: demoEmail(u.username),
        passwordHash,
        emailVerifiedAt: new Date(now),
        gender: u.gender,
        preference: 'm,t',
        isDemo: true,
      })),
    );

    const linkRows = demoCreators.flatMap((c) =>
      c.links.map((l, position) => ({
        userId: creatorId.get(c.username) as number,
        name: l.name,
        url: l.url,
        isLive: l.live ?? false,
        isImportant: l.important ?? false,
        position,
      })),
    );
    if (linkRows.length) await tx.insert(t.links).values(linkRows);

    const contestRows = demoCreators.flatMap((c) =>
      c.contest ? [{ userId: creatorId.get(c.username) as number, ...c.contest }] : [],
    );
    if (contestRows.length) await tx.insert(t.contests).values(contestRows);

    const siteRows = demoCreators.flatMap((c) =>
      c.sites.map((s) => ({ userId: creatorId.get(c.username) as number, siteId: siteId.get(s) as number })),
    );
    if (siteRows.length) await tx.insert(t.creatorWebcamSites).values(siteRows);

    const tags = await tx
      .insert(t.tags)
      // The same slug as a tag a creator types, so their tag and the demo tag are one.
      .values(demoTags.map((name) => ({ name, slug: tagSlug(name) })))
      .returning();
    const categories = await tx
      .insert(t.categories)
      .values(demoCategories.map((c, position) => ({ ...c, position })))
      .returning();

    await tx.insert(t.pages).values(Object.entries(demoPages).map(([slug, p]) => ({ slug, ...p })));

    for (let i = 0; i < videoCount; i++) {
      const owner = videoOwners[i % videoOwners.length] as string;
      const title = demoTitle(i);
      const views = Math.floor(200 + rand(i) * 250_000);
      const likes = Math.floor(views * (0.03 + rand(i + 100) * 0.12));
      const [video] = await tx
        .insert(t.videos)
        .values({
          userId: creatorId.get(owner) as number,
          slug: slugify(title),
          title,
          status: 'processing',
          isDemo: true,
          demoRecipe: { index: i },
          mediaKey: newMediaKey(),
          // Staggered over the past days: the newest demo clip is the first of the feed.
          publishAt: new Date(now - (videoCount - i) * 37 * 60_000),
          viewCount: views,
          likeCount: likes,
          // Discover's 'this week' carousels rank by these, and a clip published within the week has had
          // some of its counts this week. Demo counts have no like or view rows behind them, so the weekly
          // sweep never takes these off: the demo keeps its carousels, as it keeps its all-time counts.
          weekViewCount: Math.ceil(views * (0.1 + rand(i + 200) * 0.6)),
          weekLikeCount: Math.ceil(likes * (0.1 + rand(i + 300) * 0.6)),
        })
        .returning({ id: t.videos.id });
      const id = video?.id as number;
      // Every third clip carries more tags than the feed shows at once (5), so the ⋯ chip has work to do.
      const tagCount = i % 3 === 0 ? 7 : 3;
      const picked = Array.from({ length: tagCount }, (_, k) => tags[(i * 5 + k * 3) % tags.length]).filter(
        (x) => x !== undefined,
      );
      await tx.insert(t.videoTags).values(
        [...new Map(picked.map((tag) => [tag.id, tag])).values()].map((tag, position) => ({
          videoId: id,
          tagId: tag.id,
          position,
        })),
      );
      const category = categories[i % categories.length];
      if (category) await tx.insert(t.videoCategories).values({ videoId: id, categoryId: category.id });
    }
    await tx.insert(t.appMeta).values({ key: STATE_KEY, value: 'rows' });
  });
}

async function generateStills(deps: SeedDeps) {
  const { storage } = deps;
  const { db } = deps.database;
  const creators = await db
    .select({ id: t.users.id })
    .from(t.users)
    .where(and(eq(t.users.isDemo, true), ne(t.users.type, 'user')))
    .orderBy(t.users.id);
  let n = 0;
  for (const c of creators) {
    const avatarPath = await generateStill(
      storage,
      stillPattern(n++),
      { width: 256, height: 256 },
      `users/${c.id}/avatar.jpg`,
    );
    const coverPath = await generateStill(
      storage,
      stillPattern(n++),
      { width: 1000, height: 500 },
      `users/${c.id}/cover.jpg`,
    );
    await db.update(t.users).set({ avatarPath, coverPath }).where(eq(t.users.id, c.id));
  }
  const sites = await db.select({ id: t.webcamSites.id, slug: t.webcamSites.slug }).from(t.webcamSites);
  for (const s of sites) {
    const icon = await generateStill(
      storage,
      stillPattern(n++),
      { width: 96, height: 96 },
      `sites/${s.slug}.jpg`,
    );
    await db.update(t.webcamSites).set({ icon }).where(eq(t.webcamSites.id, s.id));
  }
  await seedPendingVerifications(deps, () => stillPattern(n++));
  await writeState(db, 'stills');
}

/**
 * A demo creator whose check is pending has sent a request, so the console's identity queue has something a
 * newcomer can open: test-pattern pictures in place of the documents, in private storage like real ones.
 */
async function seedPendingVerifications(deps: SeedDeps, pattern: () => string) {
  const { db } = deps.database;
  const pending = await db
    .select({ id: t.users.id, name: t.users.name, username: t.users.username })
    .from(t.users)
    .where(and(eq(t.users.isDemo, true), eq(t.users.verificationStatus, 'pending')));
  const sizes = {
    front: { width: 856, height: 540 },
    back: { width: 856, height: 540 },
    face: { width: 720, height: 960 },
    signature: { width: 800, height: 300 },
  };
  for (const creator of pending) {
    const dir = `verification/${creator.id}/demo`;
    const paths: Record<string, string> = {};
    for (const [kind, size] of Object.entries(sizes)) {
      paths[kind] = await generateStill(deps.storage, pattern(), size, `${dir}/${kind}.jpg`, 'private');
    }
    await db.insert(t.verificationRequests).values({
      userId: creator.id,
      legalName: `${creator.name} (demo)`,
      stageName: creator.name,
      address: '1 Demo Street, Springfield',
      country: 'US',
      gender: 'm',
      dateOfBirth: '1995-05-05',
      age: ageOn('1995-05-05'),
      identification: 'passport',
      identificationId: 'DEMO0001',
      frontPicturePath: paths.front as string,
      backPicturePath: paths.back as string,
      facePicturePath: paths.face as string,
      signaturePath: paths.signature as string,
    });
  }
}

/**
 * Queues media generation for every unfinished demo video without a job of its own. pg-boss 10 ignores a
 * bare singletonKey on a standard queue, so the queue is read instead; a job its dead worker left active is
 * retried by pg-boss once it expires.
 */
async function enqueuePendingMedia(deps: SeedDeps): Promise<number> {
  const pending = await deps.database.db
    .select({ id: t.videos.id })
    .from(t.videos)
    .where(and(eq(t.videos.isDemo, true), inArray(t.videos.status, UNFINISHED)))
    .orderBy(t.videos.id);
  for (const v of pending) {
    if ((await liveJobsOf(deps.database, v.id, [DEMO_MEDIA_QUEUE.name])).length > 0) continue;
    await deps.jobs.send(DEMO_MEDIA_QUEUE, { videoId: v.id });
  }
  return pending.length;
}
