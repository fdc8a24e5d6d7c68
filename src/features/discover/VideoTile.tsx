import { useSetAtom } from 'jotai';
import { Link } from 'react-router';
import type { Video } from '../../contract';
import { currentVideoAtom } from '../../state/preferences';
import { formatCount, formatDuration } from '../../ui/format';
import { EyeIcon } from '../../ui/icons';

/**
 * A 9:16 thumbnail that opens a feed at this video. `to` is the feed route; the list it belongs to rides
 * along in navigation state (spec §2: list, index, page), so the feed starts at once, also offline.
 */
export function VideoTile({
  video,
  index,
  list,
  to,
  eager = false,
}: {
  video: Video;
  index: number;
  list: Video[];
  to: string;
  eager?: boolean;
}) {
  const select = useSetAtom(currentVideoAtom);
  return (
    <Link
      to={to}
      state={{ feed: { list, index, next: null } }}
      className="video-tile"
      aria-label={video.title}
      onClick={() => select({ id: video.id, slug: video.slug })}
    >
      <span className="video-tile-media">
        {video.thumbnailUrl && (
          <img
            src={video.thumbnailUrl}
            alt=""
            width="180"
            height="320"
            loading={eager ? 'eager' : 'lazy'}
            // The first tiles are the largest paint of the page: fetched before anything else below the fold.
            fetchPriority={eager ? 'high' : 'auto'}
            decoding="async"
          />
        )}
        <span className="video-tile-duration">{formatDuration(video.duration)}</span>
        <span className="video-tile-counts">
          <EyeIcon /> {formatCount(video.viewCount)}
        </span>
      </span>
      <span className="video-tile-title">{video.title}</span>
    </Link>
  );
}
