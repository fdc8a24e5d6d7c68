import { useSetAtom } from 'jotai';
import { Link } from 'react-router';
import type { Video } from '../contract';
import { currentVideoAtom } from '../state/preferences';
import { formatCount, formatDuration, tileOf } from './format';
import { EyeIcon } from './icons';
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
  showStatus = false,
  showTitle = true,
}: {
  video: Video;
  index: number;
  list: Video[];
  to: string;
  next?: string | null;
  eager?: boolean;
  showStatus?: boolean;
  showTitle?: boolean;
}) {
  const select = useSetAtom(currentVideoAtom);
  const feed: FeedHandOver = { list, index, next };
  // The badges sit over the picture but outside the link: the link is named by the title alone, so the
  // words a voice-control user sees on it (WCAG 2.5.3) are never a duration or a count the name lacks.
  return (
    <div className="video-tile-frame">
      <Link
        to={to}
        state={{ feed }}
        className="video-tile"
        aria-label={video.title}
        onClick={() => select({ id: video.id, slug: video.slug })}
      >
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
        </span>
        {showTitle && <span className="video-tile-title">{video.title}</span>}
      </Link>
      <span className="video-tile-badges" aria-hidden="true">
        {showStatus && (
          <span className={`video-tile-status is-${video.status}`}>{statusLabel(video.status)}</span>
        )}
        <span className="video-tile-duration">{formatDuration(video.duration)}</span>
        <span className="video-tile-counts">
          <EyeIcon /> {formatCount(video.viewCount)}
        </span>
      </span>
    </div>
  );
}
