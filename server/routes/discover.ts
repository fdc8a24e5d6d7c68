// GET /v1/discover: one cacheable answer for every viewer of a country and gender choice. It carries no
// per-viewer flags (isLiked is always false here) so a CDN and the service worker may share it.
import type { FastifyInstance } from 'fastify';
import {
  discoverGroups,
  discoverResponseSchema,
  genderFilterField,
  listQuery,
  type SearchResponse,
  searchBodySchema,
  searchQuerySchema,
  searchResponseSchema,
} from '../../src/contract';
import type { AppDeps } from '../deps';
import { buildDiscover, CREATORS, type DiscoverAnswer, VIDEOS } from '../discover/service';
import { sendPrecompressed } from '../http/compress';
import { invalid, type Operation } from '../http/doc';
import { parse } from '../http/validate';
import { geoOf, type Viewer, viewerOf } from '../http/viewer';
import * as search from '../search/queries';
import { memo } from '../videos/freshness';
import { presentForViewer } from '../videos/listing';
import { presentCreatorCard } from '../videos/present';

/** Discover answers kept in memory at most (gender choice × country × region). */
const DISCOVER_KEYS = 2000;

export const discoverQuerySchema = listQuery({
  gender: genderFilterField,
});

export default async function discoverRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

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
  // Discover is the same for every viewer of a gender choice and place: built once per minute per key (or
  // sooner when a video is published or deleted here), and the requests that arrive while it is being built
  // wait for that one build instead of starting their own.
  const cached = memo<DiscoverAnswer>(db, () => deps.config.discoverCacheMs, DISCOVER_KEYS);
  const page = (gender: string | undefined, geo: Pick<Viewer, 'country' | 'region'>) =>
    cached(`${gender ?? ''}|${geo.country ?? ''}|${geo.region ?? ''}`, () =>
      buildDiscover(db, deps.storage, gender, geo),
    );

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

  const searchDoc: Operation = {
    summary: 'Search creators, tags and videos',
    auth: 'optional',
    query: searchQuerySchema,
    body: searchBodySchema,
    description:
      'The text is in `query`. Matches creators (name or username) who do not geo-block the viewer, tags ' +
      'with a video the viewer may see, and public video titles, when the name contains the text (any case) ' +
      `or its trigram similarity (pg_trgm: the whole name, or its best-matching word) is at least ${search.SIMILARITY}; ` +
      `best match first, ${search.SEARCH_LIMIT} of each. Under 2 characters: empty lists. Calls with ` +
      '`is_final: true` (the user stopped typing) are logged with their result count for analytics; others ' +
      'are not.',
    responses: { 200: { description: 'The matches.', schema: searchResponseSchema }, 422: invalid },
  };
  app.post('/v1/discover/search', { config: { doc: searchDoc } }, async (request) => {
    const { query: text } = parse(searchQuerySchema, request.query);
    const body = parse(searchBodySchema, request.body);
    const viewer = await viewerOf(request, deps);
    const empty: SearchResponse = { users: [], tags: [], videos: [] };
    if (text.length < 2) return empty;
    const { users, tags, videos } = await search.search(db, viewer, text);
    const result: SearchResponse = {
      users: users.map((u) => presentCreatorCard(deps.storage, u)),
      tags,
      videos: await presentForViewer(db, deps.storage, viewer, videos),
    };
    if (body.is_final) {
      await search.logSearch(db, {
        query: text,
        userId: viewer.user?.id ?? null,
        guestId: viewer.guestId ?? null,
        resultCount: users.length + tags.length + videos.length,
      });
    }
    return result;
  });
}
