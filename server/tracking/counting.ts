// Whether a click or a view counts (issue 32: 3,000 posts from one address and guest id all counted, and a
// creator's link-click figure went from 0 to 1,000). Every post is kept; it counts only if the same viewer
// has no counted one for the same target within the window. A viewer is the account, or for a guest the
// client's network: a guest id is the client's to make up, one per post if it likes.
import { and, eq, gt, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import * as t from '../db/schema';
import type { Viewer } from '../http/viewer';
import { activeUser } from '../videos/visibility';

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

/** Who posted, as every counted table keeps it: the account or the guest, and the key it counts under. */
export interface Poster {
  viewer: Pick<Viewer, 'user' | 'guestId'>;
  countKey: string;
}

const posterColumns = ({ viewer, countKey }: Poster) => ({
  userId: viewer.user?.id ?? null,
  guestId: viewer.guestId ?? null,
  countKey,
});

/** Keeps a Live Cams event; counted if it is the poster's first on that event within the window. */
export async function recordEvent(tx: Db | Tx, eventId: number, poster: Poster, windowMs: number) {
  const counted = await firstInWindow(tx, t.events, eq(t.events.eventId, eventId), poster.countKey, windowMs);
  await tx.insert(t.events).values({ eventId, ...posterColumns(poster), counted });
}

/** Keeps a click on a creator link, counted as events are; false when there is no such link. */
export async function recordLinkClick(
  tx: Db | Tx,
  click: { linkId: number; isLive: boolean; linkLocation: string },
  poster: Poster,
  windowMs: number,
): Promise<boolean> {
  const [link] = await tx.select({ id: t.links.id }).from(t.links).where(eq(t.links.id, click.linkId));
  if (!link) return false;
  const target = eq(t.linkClicks.linkId, link.id);
  const counted = await firstInWindow(tx, t.linkClicks, target, poster.countKey, windowMs);
  await tx.insert(t.linkClicks).values({ ...click, ...posterColumns(poster), counted });
  return true;
}

/**
 * Keeps a view of an active profile, counted as events are; a view of your own is not kept at all. False when
 * there is no such profile.
 */
export async function recordProfileView(
  tx: Db | Tx,
  profileId: number,
  poster: Poster,
  windowMs: number,
): Promise<boolean> {
  const [profile] = await tx
    .select({ id: t.users.id })
    .from(t.users)
    .where(and(eq(t.users.id, profileId), activeUser()));
  if (!profile) return false;
  if (poster.viewer.user?.id === profile.id) return true;
  const target = eq(t.profileViews.profileId, profile.id);
  const counted = await firstInWindow(tx, t.profileViews, target, poster.countKey, windowMs);
  await tx.insert(t.profileViews).values({ profileId: profile.id, ...posterColumns(poster), counted });
  return true;
}
