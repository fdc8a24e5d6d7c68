// The SQL of static pages: the footer's pages and any the operator adds, by slug.
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import * as t from '../db/schema';

export type PageRow = typeof t.pages.$inferSelect;

export async function pageBySlug(db: Db, slug: string): Promise<PageRow | undefined> {
  const [page] = await db.select().from(t.pages).where(eq(t.pages.slug, slug));
  return page;
}
