import { useSetAtom } from 'jotai';
import { useId } from 'react';
import type { Video } from '../contract';
import { currentVideoAtom } from '../state/preferences';
import { formatCount, formatDuration, tileOf } from './format';
import { EyeIcon } from './icons';
import { Link } from './Link';
import './video-grid.css';

/**
 * What a grid hands the feed it opens, as `location.state.feed` (the feed reads it as its start): the list
 * as loaded so far, the tapped position, and the list's links.next so the feed goes on where the grid stopped.
 */
export interface FeedHandOver {
  list: Video[];
  index: number;
  next: string | null;
}

/** Spec §4: the owner sees the status capitalised ("Processing"). */
export const statusLabel = (status: string) => status.charAt(0).toUpperCase() + status.slice(1);

/** A badge drawn over a tile (the owner's status): its words and the tone it is drawn in. */
export interface TileBadge {
  text: string;
  tone: string;
}

/**
 * A 9:16 thumbnail that opens a feed at this video. `to` is the feed route; the list it belongs to rides
 * along in navigation state (spec §2: list, index, page), so the feed starts at once, also offline.
 */
export function VideoTile({
  video,
  index,
  list,
  to,
  next = null,
  eager = false,
  badge,
  showTitle = true,
}: {
  video: Video;
  index: number;
  list: Video[];
  to: string;
  next?: string | null;
  eager?: boolean;
  badge?: TileBadge | undefined;
  showTitle?: boolean;
}) {
  const select = useSetAtom(currentVideoAtom);
  const feed: FeedHandOver = { list, index, next };
  const statusId = useId();
  // The tile's name is the title alone (what a person says to pick it); the overlays are drawn, not read,
  // and the owner's status badge is read as the tile's description.
  const media = (
    <span className="video-tile-media">
      {tileOf(video) && (
        <img
          src={tileOf(video) ?? undefined}
          alt=""
          width="180"
          height="320"
          loading={eager ? 'eager' : 'lazy'}
          // The first tiles are the largest paint of the page: fetched before anything else below the fold.
          fetchPriority={eager ? 'high' : 'auto'}
          decoding="async"
        />
      )}
      {badge && (
        <span id={statusId} className={`video-tile-status is-${badge.tone}`} aria-hidden="true">
          {badge.text}
        </span>
      )}
      <span className="video-tile-duration" aria-hidden="true">
        {formatDuration(video.duration)}
      </span>
      <span className="video-tile-counts" aria-hidden="true">
        <EyeIcon /> {formatCount(video.viewCount)}
      </span>
    </span>
  );
  // A video on its way out (only its owner still sees it) opens nothing: its files are being removed.
  if (video.status === 'deleting')
    return (
      <div className="video-tile is-deleting">
        <span className="visually-hidden">
          {video.title}, {statusLabel(video.status)}
        </span>
        {media}
        {showTitle && (
          <span className="video-tile-title" aria-hidden="true">
            {video.title}
          </span>
        )}
      </div>
    );
  return (
    <Link
      to={to}
      state={{ feed }}
      className="video-tile"
      aria-describedby={badge ? statusId : undefined}
      onClick={() => select({ id: video.id, slug: video.slug })}
    >
      {/* The name comes from the content, the title alone: the overlays are aria-hidden. An aria-label
          would be a name that leaves out text on screen (WCAG 2.5.3, axe label-content-name-mismatch). */}
      {!showTitle && <span className="visually-hidden">{video.title}</span>}
      {media}
      {showTitle && <span className="video-tile-title">{video.title}</span>}
    </Link>
  );
}
