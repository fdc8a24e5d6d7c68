// GET /v1/discover: one cacheable answer for every viewer of a country and gender choice. It carries no
// per-viewer flags (isLiked is always false here) so a CDN and the service worker may share it.
import { createHash } from 'node:crypto';
import { type AnyColumn, and, asc, desc, eq, exists, gt, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import {
  type CreatorCard,
  type DiscoverResponse,
  discoverGroups,
  discoverResponseSchema,
  genderFilterField,
  listQuery,
  type SearchResponse,
  searchBodySchema,
  searchQuerySchema,
  searchResponseSchema,
} from '../../src/contract';
import type { Db } from '../db/client';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import { type Precompressed, precompress, sendPrecompressed } from '../http/compress';
import { invalid, type Operation } from '../http/doc';
import { parse } from '../http/validate';
import { geoOf, type Viewer, viewerOf } from '../http/viewer';
import type { MediaStorage } from '../media/storage';
import { memo } from '../videos/freshness';
import { presentForViewer, tagHasVisibleVideo, type VideoRow, visibleTo } from '../videos/listing';
import { presentVideos } from '../videos/present';
import { activeUser, notGeoBlocked, publicVideo } from '../videos/visibility';

const CREATORS = 12;
const VIDEOS = 10;
const SEARCH_LIMIT = 10;
/** Discover answers kept in memory at most (gender choice × country × region). */
const DISCOVER_KEYS = 2000;

interface Cached {
  body: Precompressed;
  etag: string;
}
/** Below this, trigram matches are mostly noise; 'lunna' ~ 'luna' scores 0.57, 'beech' ~ 'beach' 0.33. */
const SIMILARITY = 0.3;

/** A contains-match for LIKE, with the user's own % and _ taken literally. */
const containing = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const discoverQuerySchema = listQuery({
  gender: genderFilterField,
});

const cardOf = (storage: MediaStorage, u: typeof t.users.$inferSelect): CreatorCard => ({
  id: u.id,
  slug: u.slug,
  name: u.name,
  avatar: storage.url(u.avatarPath),
  isLive: u.isLive ? 1 : 0,
  type: u.type === 'channel' ? 'channel' : 'model',
});

export type DiscoverGroup = keyof DiscoverResponse['videos'];

/**
 * One ranked group of the discover page: weekly groups by the likes / views of the last 7 days, all-time
 * groups by all of them, each a counter on the video row (weekly ones: server/videos/weekly.ts), so the top
 * of a group is a walk down its index. Shared by GET /v1/discover (first 10) and the group's own feed, which
 * pages through the same order (/v1/discover/category/{group slug}/videos) and adds its session's `filters`.
 */
export async function rankedVideos(
  db: Db,
  viewer: Viewer,
  gender: string | undefined,
  group: DiscoverGroup,
  opts: { limit: number; filters?: SQL[] },
): Promise<VideoRow[]> {
  const counter = {
    liked_weekly: t.videos.weekLikeCount,
    viewed_weekly: t.videos.weekViewCount,
    liked_all_time: t.videos.likeCount,
    viewed_all_time: t.videos.viewCount,
  }[group];
  return db
    .select()
    .from(t.videos)
    .where(and(...visibleTo(viewer, gender), ...(opts.filters ?? []), gt(counter, 0)))
    .orderBy(desc(counter), desc(t.videos.id))
    .limit(opts.limit);
}

export default async function discoverRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;
  const card = (u: typeof t.users.$inferSelect) => cardOf(deps.storage, u);

  const { geoCountryHeader, geoRegionHeader } = deps.config;
  const discoverDoc: Operation = {
    summary: 'The discover page: live and latest creators, ranked video groups, cam sites',
    query: discoverQuerySchema,
    headers: { 'If-None-Match': 'An ETag of an earlier answer: 304 while it still holds.' },
    description:
      'The same answer for guests and users (no per-viewer flags: `isLiked` and `isRated` are false), so a ' +
      'CDN and the service worker may share it: a strong `ETag` (hash of the body), `Cache-Control: public, ' +
      `max-age=60, stale-while-revalidate=600\`, \`Vary: Accept-Encoding, ${geoCountryHeader}, ${geoRegionHeader}\` ` +
      '(brotli or gzip, compressed once per build; geo-blocking), ' +
      `and 304 for a matching \`If-None-Match\`. Up to ${CREATORS} live creators (by name) and ${CREATORS} ` +
      `latest creators with a public video; ${VIDEOS} videos per group: weekly groups count likes / views of ` +
      'the last 7 days, all-time groups the counters. Each group is also a feed, in the same order: GET ' +
      `/v1/discover/category/{${discoverGroups.map((g) => g.slug).join(' | ')}}/videos.`,
    responses: {
      200: { description: 'The page.', schema: discoverResponseSchema },
      304: { description: 'Not modified.' },
      422: invalid,
    },
  };
  /** The page for one gender choice and place, with its ETag: what every such viewer is answered. */
  async function build(gender: string | undefined, geo: Pick<Viewer, 'country' | 'region'>): Promise<Cached> {
    const viewer: Viewer = { user: undefined, guestId: undefined, key: undefined, ...geo };
    const genders = gender ? (gender.split(',') as ('m' | 't')[]) : undefined;
    const creatorFilters: SQL[] = [
      inArray(t.users.type, ['model', 'channel']),
      activeUser(),
      notGeoBlocked(viewer, t.users.id),
    ];
    if (genders) creatorFilters.push(inArray(t.users.gender, genders));
    const hasPublicVideo = exists(
      db
        .select({ one: sql`1` })
        .from(t.videos)
        .where(and(eq(t.videos.userId, t.users.id), publicVideo())),
    );

    const [live, latest, likedWeekly, likedAll, viewedWeekly, viewedAll, sites] = await Promise.all([
      db
        .select()
        .from(t.users)
        .where(and(...creatorFilters, eq(t.users.isLive, true)))
        .orderBy(asc(t.users.name), asc(t.users.id))
        .limit(CREATORS),
      db
        .select()
        .from(t.users)
        .where(and(...creatorFilters, hasPublicVideo))
        .orderBy(desc(t.users.createdAt), desc(t.users.id))
        .limit(CREATORS),
      rankedVideos(db, viewer, gender, 'liked_weekly', { limit: VIDEOS }),
      rankedVideos(db, viewer, gender, 'liked_all_time', { limit: VIDEOS }),
      rankedVideos(db, viewer, gender, 'viewed_weekly', { limit: VIDEOS }),
      rankedVideos(db, viewer, gender, 'viewed_all_time', { limit: VIDEOS }),
      db.select().from(t.webcamSites).orderBy(asc(t.webcamSites.position), asc(t.webcamSites.id)),
    ]);
    const present = (rows: VideoRow[]) => presentVideos(db, deps.storage, rows);
    const body: DiscoverResponse = {
      liveUsers: live.map(card),
      latestUsers: latest.map(card),
      videos: {
        liked_weekly: await present(likedWeekly),
        liked_all_time: await present(likedAll),
        viewed_weekly: await present(viewedWeekly),
        viewed_all_time: await present(viewedAll),
      },
      webcam_sites: sites.map((s) => ({
        name: s.name,
        slug: s.slug,
        icon: s.icon && /^(https?:)?\//.test(s.icon) ? s.icon : deps.storage.url(s.icon),
      })),
    };
    const json = JSON.stringify(body);
    // Strong validator: the same bytes always give the same tag, on every API node.
    const etag = `"${createHash('sha256').update(json).digest('base64url').slice(0, 32)}"`;
    // Compressed here, once per build, rather than on each of the thousands of requests it answers.
    return { body: precompress(json), etag };
  }

  // Discover is the same for every viewer of a gender choice and place: built once per minute per key (or
  // sooner when a video is published or deleted here), and the requests that arrive while it is being built
  // wait for that one build instead of starting their own.
  const cached = memo<Cached>(db, () => deps.config.discoverCacheMs, DISCOVER_KEYS);
  const page = (gender: string | undefined, geo: Pick<Viewer, 'country' | 'region'>) =>
    cached(`${gender ?? ''}|${geo.country ?? ''}|${geo.region ?? ''}`, () => build(gender, geo));

  app.get('/v1/discover', { config: { doc: discoverDoc } }, async (request, reply) => {
    const query = parse(discoverQuerySchema, request.query);
    // Only the country and region matter here (geo-blocking): no token or guest lookup.
    const gender = query.gender ? [...new Set(query.gender.split(','))].sort().join(',') : undefined;
    const { body, etag } = await page(gender, geoOf(request, deps));
    reply
      .header('ETag', etag)
      .header('Cache-Control', 'public, max-age=60, stale-while-revalidate=600')
      // The body depends on the viewer's country and region (geo-blocking), so shared caches must key on them.
      .header('Vary', `Accept-Encoding, ${deps.config.geoCountryHeader}, ${deps.config.geoRegionHeader}`);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch?.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
      return reply.status(304).send();
    }
    return sendPrecompressed(reply.type('application/json; charset=utf-8'), body);
  });
}

export async function searchRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;
  const card = (u: typeof t.users.$inferSelect) => cardOf(deps.storage, u);

  const searchDoc: Operation = {
    summary: 'Search creators, tags and videos',
    auth: 'optional',
    query: searchQuerySchema,
    body: searchBodySchema,
    description:
      'The text is in `query`. Matches creators (name or username) who do not geo-block the viewer, tags ' +
      'with a video the viewer may see, and public video titles, when the name contains the text (any case) ' +
      `or its trigram similarity (pg_trgm: the whole name, or its best-matching word) is at least ${SIMILARITY}; ` +
      `best match first, ${SEARCH_LIMIT} of each. Under 2 characters: empty lists. Calls with ` +
      '`is_final: true` (the user stopped typing) are logged with their result count for analytics; others ' +
      'are not.',
    responses: { 200: { description: 'The matches.', schema: searchResponseSchema }, 422: invalid },
  };
  /**
   * Typo-tolerant search: a name matches when it contains the text, or when its trigram similarity to it
   * (whole name, or its best-matching word for titles) is at least SIMILARITY. Best matches first.
   */
  app.post('/v1/discover/search', { config: { doc: searchDoc } }, async (request) => {
    const { query: text } = parse(searchQuerySchema, request.query);
    const body = parse(searchBodySchema, request.body);
    const viewer = await viewerOf(request, deps);
    const empty: SearchResponse = { users: [], tags: [], videos: [] };
    if (text.length < 2) return empty;
    const like = containing(text);
    const q = text.toLowerCase();
    const matches = (column: AnyColumn) =>
      sql`(lower(${column}) like ${like} or similarity(${column}, ${q}) >= ${SIMILARITY} or word_similarity(${q}, ${column}) >= ${SIMILARITY})`;
    const rank = (column: AnyColumn) =>
      sql`greatest(similarity(${column}, ${q}), word_similarity(${q}, ${column}), case when lower(${column}) like ${like} then 1 else 0 end)`;

    const [users, tags, videos] = await Promise.all([
      db
        .select()
        .from(t.users)
        .where(
          and(
            inArray(t.users.type, ['model', 'channel']),
            activeUser(),
            notGeoBlocked(viewer, t.users.id),
            sql`(${matches(t.users.name)} or ${matches(t.users.username)})`,
          ),
        )
        .orderBy(desc(sql`greatest(${rank(t.users.name)}, ${rank(t.users.username)})`), asc(t.users.id))
        .limit(SEARCH_LIMIT),
      db
        .select({ id: t.tags.id, name: t.tags.name, slug: t.tags.slug })
        .from(t.tags)
        .where(and(matches(t.tags.name), tagHasVisibleVideo(db, viewer, t.tags.id)))
        .orderBy(desc(rank(t.tags.name)), asc(t.tags.id))
        .limit(SEARCH_LIMIT),
      db
        .select()
        .from(t.videos)
        .where(and(...visibleTo(viewer), matches(t.videos.title)))
        .orderBy(desc(rank(t.videos.title)), desc(t.videos.likeCount), desc(t.videos.id))
        .limit(SEARCH_LIMIT),
    ]);
    const result: SearchResponse = {
      users: users.map(card),
      tags,
      videos: await presentForViewer(db, deps.storage, viewer, videos),
    };
    if (body.is_final) {
      await db.insert(t.searchLog).values({
        query: text,
        userId: viewer.user?.id ?? null,
        guestId: viewer.guestId ?? null,
        resultCount: users.length + tags.length + videos.length,
      });
    }
    return result;
  });
}
