import { and, desc, exists, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { type FeedQuery, feedQuerySchema } from '../../src/contract';
import * as t from '../db/schema';
import type { AppDeps } from '../deps';
import { parse } from '../http/validate';
import { presentVideos } from './present';
import { publicVideo } from './visibility';

const DEFAULT_PER_PAGE = 10;
const MAX_PER_PAGE = 50;

function feedFilters(query: FeedQuery): SQL[] {
  const filters = [publicVideo()];
  if (query.gender) {
    const genders = query.gender.split(',') as ('m' | 't')[];
    filters.push(
      exists(
        sql`(select 1 from ${t.users} where ${t.users.id} = ${t.videos.userId} and ${inArray(t.users.gender, genders)})`,
      ),
    );
  }
  if (query.tags) {
    const ids = query.tags.split(',').map(Number);
    filters.push(
      exists(
        sql`(select 1 from ${t.videoTags} where ${t.videoTags.videoId} = ${t.videos.id} and ${inArray(t.videoTags.tagId, ids)})`,
      ),
    );
  }
  return filters;
}

/** `links.next` repeats the caller's filters so the client can follow it blindly. */
export function nextLink(path: string, query: Record<string, unknown>, page: number, hasMore: boolean) {
  if (!hasMore) return null;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && k !== 'page') params.set(k, String(v));
  params.set('page', String(page + 1));
  return `${path}?${params}`;
}

export default async function videoRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps.database;

  // Home feed. Newest first for now; the ranked feed (freshness and engagement) replaces this ordering.
  app.get('/v1/videos', async (request) => {
    const query = parse(feedQuerySchema, request.query);
    const page = query.page ?? 1;
    const perPage = Math.min(query.per_page ?? DEFAULT_PER_PAGE, MAX_PER_PAGE);
    const rows = await db
      .select()
      .from(t.videos)
      .where(and(...feedFilters(query)))
      .orderBy(desc(t.videos.publishAt), desc(t.videos.id))
      .limit(perPage + 1)
      .offset((page - 1) * perPage);
    const hasMore = rows.length > perPage;
    return {
      data: await presentVideos(db, deps.storage, rows.slice(0, perPage)),
      links: { next: nextLink('/v1/videos', request.query as Record<string, unknown>, page, hasMore) },
    };
  });
}
