// Newest-first lists (tag, category, cam site, sidebar, rating) and the tag lists. All page by keyset
// cursor, so videos published while someone scrolls neither repeat nor hide anything on later pages.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as v from 'valibot';
import {
  discoverGroups,
  feedQuerySchema,
  idOf,
  MAX_ID,
  messages,
  tagListQuerySchema,
  tagListSchema,
} from '../../src/contract';
import type { AppDeps } from '../deps';
import { rankedVideos } from '../discover/queries';
import * as q from '../feeds/queries';
import { ERR, invalidList, listedVideos, type Operation, videoPage } from '../http/doc';
import { notFound } from '../http/errors';
import { parse } from '../http/validate';
import { type Viewer, viewerOf } from '../http/viewer';
import {
  chronoCursorOf,
  chronoCursorSchema,
  decodeCursor,
  encodeCursor,
  nextLink,
  opensList,
  pageOffset,
  presentForViewer,
  rankedSessionPage,
  type VideoRow,
  visibleVideo,
} from '../videos/listing';

const MAX_PER_PAGE = 100;
/** A ranked discover group's session stops at this many videos. */
const MAX_RANKED = 200;

/**
 * What a slug can be (tagSlug keeps letters and digits of every script, '日本'; slugify keeps a-z 0-9), as
 * the router hands it over, URL-decoded; looked up in lower case.
 */
const SLUG = /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*$/u;

const idOrSlug = (value: string): q.Ref | null =>
  /^\d{1,10}$/.test(value) ? { id: idOf(value) ?? 0 } : SLUG.test(value) ? { slug: value } : null;

/** The reference entry of a newest-first list; `notFound` names what its path may fail to find. */
function newestFirstDoc(summary: string, perPage: number, opts: { rules?: string; notFound?: string } = {}) {
  const op: Operation = {
    summary: `${summary}, newest first, ${perPage} per page`,
    auth: 'optional',
    query: feedQuerySchema,
    description:
      `${opts.rules ? `${opts.rules} ` : ''}\`per_page\` up to ${MAX_PER_PAGE}; \`tags\` applies to the home ` +
      'feed only. Pages by keyset on (publish time, id): follow `links.next` as is; videos published while ' +
      'someone scrolls appear at the top of the next fresh list and never repeat or hide anything on later ' +
      'pages. A client that counts pages itself may send `page=N` without a cursor: page N by offset over ' +
      `the same order. ${listedVideos}`,
    responses: { 200: videoPage, 422: invalidList },
  };
  if (opts.notFound) op.responses[404] = { description: opts.notFound, ...ERR };
  return op;
}

/** The reference entry of a tag list. */
const tagListDoc = (summary: string, rules: string): Operation => ({
  summary: `${summary}, in name order, 100 per page`,
  auth: 'optional',
  query: tagListQuerySchema,
  description:
    `${rules} \`search\` keeps names containing it (any case); \`gender\` counts only videos of creators of ` +
    `that gender. \`per_page\` up to ${MAX_PER_PAGE}. Pages by keyset on (lower(name), id): follow ` +
    '`links.next` as is (or send `page=N` without a cursor: page N by offset).',
  responses: { 200: { description: 'A page of tags.', schema: tagListSchema }, 422: invalidList },
});

const unknownTag = 'No tag with this id or slug.';

export default async function feedRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  /**
   * One newest-first page. `first` (page 1 only) is put in front and left out of the rest, for lists that
   * open on a chosen video.
   */
  async function chronoList(
    request: FastifyRequest,
    opts: { perPage: number; filters: (viewer: Viewer) => q.VideoFilter[]; first?: VideoRow },
  ) {
    const query = parse(feedQuerySchema, request.query);
    const viewer = await viewerOf(request, deps);
    const cursor = decodeCursor(chronoCursorSchema, query.cursor);
    const perPage = Math.min(query.per_page ?? opts.perPage, MAX_PER_PAGE);
    const lead = opts.first && opensList(query) ? [opts.first] : [];
    const rows = await q.newestFirst(db, viewer, {
      gender: query.gender,
      filters: opts.filters(viewer),
      after: cursor,
      exclude: opts.first?.id,
      limit: perPage - lead.length + 1,
      offset: pageOffset(query, perPage, opts.first ? 1 : 0),
    });
    const page = rows.slice(0, perPage - lead.length);
    const last = page.at(-1);
    const more = rows.length > page.length;
    const shown = [...lead, ...page];
    return {
      data: await presentForViewer(db, deps.storage, viewer, shown),
      links: {
        next: nextLink(
          request.url.split('?')[0] ?? '',
          request.query as Record<string, unknown>,
          more ? (last ? chronoCursorOf(last) : encodeCursor({ p: Date.now() + 1, i: 2 ** 31 - 1 })) : null,
        ),
      },
    };
  }

  async function findTag(key: string) {
    const ref = idOrSlug(key);
    if (!ref) throw notFound();
    const tag = await q.tagByRef(db, ref);
    if (!tag) throw notFound();
    return tag;
  }

  const byTag = newestFirstDoc('Videos with a tag (id or slug)', 30, { notFound: unknownTag });
  app.get<{ Params: { tag: string } }>(
    '/v1/tags/:tag/videos',
    { config: { doc: byTag } },
    async (request) => {
      const tag = await findTag(request.params.tag);
      return chronoList(request, { perPage: 30, filters: () => [q.withTag(db, tag.id)] });
    },
  );

  const fromVideo = newestFirstDoc('A tag’s videos opening on one video', 10, {
    rules: 'That video first on page 1 (it need not carry the tag), then the tag’s videos without it.',
    notFound: `${unknownTag} Or \`${messages.video.notFound}\`: the video is not public or is geo-blocked.`,
  });
  app.get<{ Params: { tag: string; id: string } }>(
    '/v1/tags/:tag/videos/:id',
    { config: { doc: fromVideo } },
    async (request) => {
      const tag = await findTag(request.params.tag);
      const viewer = await viewerOf(request, deps);
      const first = await visibleVideo(db, viewer, idOf(request.params.id) ?? 0);
      return chronoList(request, { perPage: 10, filters: () => [q.withTag(db, tag.id)], first });
    },
  );

  const groups = discoverGroups.map((g) => `\`${g.slug}\``).join(', ');
  const byCategory = newestFirstDoc('Videos of a category (id or slug) or of a discover group', 30, {
    rules:
      `The discover groups (${groups}) are categories too, the feed of a carousel’s ‘More Videos’: ranked ` +
      'as GET /v1/discover ranks them, and paged like the home feed: the cursor carries the ids already ' +
      'served and the moment of page 1, so counts that move between pages reorder what is left but a ' +
      `session never sees a video twice or misses one, up to ${MAX_RANKED} videos. Every other category ` +
      'pages as follows.',
    notFound: 'No category or group with this id or slug.',
  });
  app.get<{ Params: { category: string } }>(
    '/v1/discover/category/:category/videos',
    { config: { doc: byCategory } },
    async (request) => {
      // The discover carousels ('Most liked this week'...) are categories too: their 'More Videos' opens this.
      const group = discoverGroups.find((g) => g.slug === request.params.category.toLowerCase());
      if (group) {
        const query = parse(feedQuerySchema, request.query);
        const viewer = await viewerOf(request, deps);
        const perPage = Math.min(query.per_page ?? 30, MAX_PER_PAGE);
        // Likes and views move while someone pages: like the home feed, the cursor carries what was served.
        const page = await rankedSessionPage(query, {
          perPage,
          max: MAX_RANKED,
          skip: pageOffset(query, perPage),
          rank: (read) => rankedVideos(db, viewer, query.gender, group.key, read),
        });
        return {
          data: await presentForViewer(db, deps.storage, viewer, page.rows),
          links: {
            next: nextLink(
              request.url.split('?')[0] ?? '',
              request.query as Record<string, unknown>,
              page.cursor,
            ),
          },
        };
      }
      const ref = idOrSlug(request.params.category);
      if (!ref) throw notFound();
      const category = await q.categoryByRef(db, ref);
      if (!category) throw notFound();
      const inCategory = q.inCategory(db, category.id);
      return chronoList(request, { perPage: 30, filters: () => [inCategory] });
    },
  );

  const bySite = newestFirstDoc('Videos of creators who are on a cam site (id or slug)', 30, {
    notFound: 'No cam site with this id or slug.',
  });
  app.get<{ Params: { site: string } }>(
    '/v1/discover/webcam-site/:site/videos',
    { config: { doc: bySite } },
    async (request) => {
      const ref = idOrSlug(request.params.site);
      if (!ref) throw notFound();
      const site = await q.webcamSiteByRef(db, ref);
      if (!site) throw notFound();
      const onSite = q.onSite(db, site.id);
      return chronoList(request, { perPage: 30, filters: () => [onSite] });
    },
  );

  const sidebar = newestFirstDoc('Recommendations for the wide-screen sidebar', 20);
  app.get('/v1/sidebar/left', { config: { doc: sidebar } }, (request) =>
    chronoList(request, { perPage: 20, filters: () => [] }),
  );

  const unrated = (request: FastifyRequest) =>
    chronoList(request, { perPage: 30, filters: (viewer) => q.unratedBy(db, viewer) });
  const unratedRules =
    'For the rating screen and the rating mode: what the user may still rate (not their own videos nor ' +
    'their studio’s, which are a 403 to rate). Guests have rated nothing: every video.';
  const unratedDoc = newestFirstDoc('Videos the user has not rated', 30, { rules: unratedRules });
  app.get('/v1/video-rating/unrated', { config: { doc: unratedDoc } }, unrated);
  const rated = newestFirstDoc('Videos the user has rated', 30, {
    rules: 'Guests have rated nothing: empty.',
  });
  app.get('/v1/video-rating/rated', { config: { doc: rated } }, (request) =>
    chronoList(request, { perPage: 30, filters: (viewer) => q.ratedByViewer(db, viewer) }),
  );

  /** Tags in name order with at least one video this viewer may see. */
  async function tagList(request: FastifyRequest) {
    const query = parse(tagListQuerySchema, request.query);
    const viewer = await viewerOf(request, deps);
    const perPage = Math.min(query.per_page ?? 100, MAX_PER_PAGE);
    const cursor = decodeCursor(
      v.object({
        n: v.pipe(v.string(), v.maxLength(200)),
        i: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_ID)),
      }),
      query.cursor,
    );
    const rows = await q.tagsInNameOrder(db, viewer, {
      gender: query.gender,
      search: query.search,
      after: cursor,
      limit: perPage + 1,
      offset: pageOffset(query, perPage),
    });
    const page = rows.slice(0, perPage);
    const last = page.at(-1);
    return {
      data: page,
      links: {
        next: nextLink(
          request.url.split('?')[0] ?? '',
          request.query as Record<string, unknown>,
          rows.length > perPage && last ? encodeCursor({ n: last.name.toLowerCase(), i: last.id }) : null,
        ),
      },
    };
  }

  const tags = tagListDoc('Tags', 'Tags with at least one video the viewer may see.');
  app.get('/v1/tags', { config: { doc: tags } }, tagList);
  // Spec §7: the rating mode's feed source, so the same videos as /v1/video-rating/unrated (not tags).
  const ratingSource = newestFirstDoc('The rating mode’s feed: videos the user has not rated', 30, {
    rules: `The same list as GET /v1/video-rating/unrated. ${unratedRules}`,
  });
  app.get('/v1/tags/video-rating/unrated', { config: { doc: ratingSource } }, unrated);
}
