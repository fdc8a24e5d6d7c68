// The SQL of geo-blocks: the (country, region) pairs a creator hides from; region '' is the whole country.
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';

export type GeoPair = { countryCode: string; regionCode: string };

export async function blocksOf(db: Db, userId: number): Promise<GeoPair[]> {
  return db
    .select({ countryCode: t.geoBlocks.countryCode, regionCode: t.geoBlocks.regionCode })
    .from(t.geoBlocks)
    .where(eq(t.geoBlocks.userId, userId))
    .orderBy(asc(t.geoBlocks.countryCode), asc(t.geoBlocks.regionCode));
}

/** Adding an existing pair changes nothing (spec §5: ignored). */
export async function addBlock(db: Db, userId: number, pair: GeoPair) {
  await db
    .insert(t.geoBlocks)
    .values({ userId, ...pair })
    .onConflictDoNothing();
}

export async function deleteBlock(db: Db, userId: number, pair: GeoPair) {
  await db
    .delete(t.geoBlocks)
    .where(
      and(
        eq(t.geoBlocks.userId, userId),
        eq(t.geoBlocks.countryCode, pair.countryCode),
        eq(t.geoBlocks.regionCode, pair.regionCode),
      ),
    );
}
