import type { ReactNode } from 'react';
import { trackEvent, trackLinkClick } from '../api/tracking';
import type { Link } from '../contract';

/** Creators may save a link without its scheme (spec §5 'Add link'); as an href that would be a path here. */
export const absoluteUrl = (url: string) => (/^https?:\/\//i.test(url) ? url : `https://${url}`);

/**
 * A creator's outbound link: a new tab, no referrer handle and no endorsement (noopener nofollow), and a
 * link click for the creator's stats through the outbox (spec §7), tagged with where it was clicked; a live
 * link is an outbound open to cams as well, counted as such.
 */
export function CreatorLink({
  link,
  location,
  className,
  children,
}: {
  link: Link;
  location: 'profile' | 'sidebar';
  className?: string;
  children: ReactNode;
}) {
  const track = () => {
    void trackLinkClick(link.id, location, link.isLive === 1);
    // Spec §9 event 5 ("other"): a live room opened from anywhere but the feed's bottom chip (event 1), the
    // menu (3) or the floating button (7), i.e. a creator's live link on their profile or the wide sidebar.
    if (link.isLive === 1) void trackEvent(5);
  };
  return (
    <a
      href={absoluteUrl(link.url)}
      target="_blank"
      rel="noopener nofollow"
      className={className}
      onClick={track}
      // A middle click opens the tab too, without a click event.
      onAuxClick={(e) => {
        if (e.button === 1) track();
      }}
    >
      {children}
    </a>
  );
}
