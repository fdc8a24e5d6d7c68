// Who may see what, as SQL fragments every list and read composes, so a rule is written once.
import { and, type Column, eq, lte, type SQL, sql } from 'drizzle-orm';
import * as t from '../db/schema';
import type { Viewer } from '../http/viewer';

/** Any viewer may see a video once it is approved and its scheduled time has come. */
export const publicVideo = (): SQL =>
  and(eq(t.videos.status, 'approved'), lte(t.videos.publishAt, sql`now()`)) as SQL;

/**
 * False for creators who geo-block the viewer's country, or the viewer's region of it. A viewer whose
 * country is unknown (no trusted header) sees everything.
 */
export function notGeoBlocked(viewer: Pick<Viewer, 'country' | 'region'>, creatorId: Column | SQL): SQL {
  if (!viewer.country) return sql`true`;
  return sql`not exists (select 1 from ${t.geoBlocks} where ${t.geoBlocks.userId} = ${creatorId} and ${t.geoBlocks.countryCode} = ${viewer.country} and (${t.geoBlocks.regionCode} = '' or ${t.geoBlocks.regionCode} = ${viewer.region ?? ''}))`;
}
