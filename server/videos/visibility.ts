// Who may see what, as SQL fragments every list and read composes, so a rule is written once.
import { and, type Column, eq, isNull, lte, ne, type SQL, sql } from 'drizzle-orm';
import * as t from '../db/schema';
import type { Viewer } from '../http/viewer';

/**
 * Any viewer may see a video once it plays (`approved`), no operator holds it for review (UPLOAD_REVIEW=before),
 * its creator is not suspended and its scheduled time has come. The review and suspension tests are the
 * predicate of videos_public (db/schema.ts): written otherwise, the planner could not walk it.
 */
export const publicVideo = (): SQL =>
  and(
    eq(t.videos.status, 'approved'),
    ne(t.videos.review, 'held'),
    eq(t.videos.creatorSuspended, false),
    lte(t.videos.publishAt, sql`now()`),
  ) as SQL;

/** An account that shows anywhere: not suspended by an operator. */
export const activeUser = (): SQL => isNull(t.users.suspendedAt);

/**
 * False for creators who geo-block the viewer's country, or the viewer's region of it. A viewer whose
 * country is unknown (no trusted header) sees everything.
 */
export function notGeoBlocked(viewer: Pick<Viewer, 'country' | 'region'>, creatorId: Column | SQL): SQL {
  if (!viewer.country) return sql`true`;
  return sql`not exists (select 1 from ${t.geoBlocks} where ${t.geoBlocks.userId} = ${creatorId} and ${t.geoBlocks.countryCode} = ${viewer.country} and (${t.geoBlocks.regionCode} = '' or ${t.geoBlocks.regionCode} = ${viewer.region ?? ''}))`;
}
