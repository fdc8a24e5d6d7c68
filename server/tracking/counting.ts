// Whether a click or a view counts (issue 32: 3,000 posts from one address and guest id all counted, and a
// creator's link-click figure went from 0 to 1,000). Every post is kept; it counts only if the same viewer
// has no counted one for the same target within the window. A viewer is the account, or for a guest the
// client's network: a guest id is the client's to make up, one per post if it likes.
import { and, eq, gt, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import type * as t from '../db/schema';
import type { Viewer } from '../http/viewer';

/** Who counts as one viewer: `u:{id}`, else `a:{network}` (an IPv4 address, or an IPv6 /64). */
export const countKeyOf = (viewer: Pick<Viewer, 'user'>, network: string): string =>
  viewer.user ? `u:${viewer.user.id}` : `a:${network}`;

type Counted = typeof t.linkClicks | typeof t.profileViews | typeof t.events;

/** True when `key` has no counted post on the target (`target`, a condition on `table`) within `windowMs`. */
export async function firstInWindow(
  tx: Db | Tx,
  table: Counted,
  target: SQL,
  key: string,
  windowMs: number,
): Promise<boolean> {
  const [earlier] = await tx
    .select({ one: sql`1` })
    .from(table)
    .where(
      and(
        target,
        eq(table.countKey, key),
        eq(table.counted, true),
        gt(table.createdAt, sql`now() - make_interval(secs => ${windowMs / 1000})`),
      ),
    )
    .limit(1);
  return earlier === undefined;
}
