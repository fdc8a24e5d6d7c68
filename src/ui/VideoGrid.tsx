import type { ReactNode } from 'react';
import type { Video } from '../contract';
import { type GridPaging, PageEnd } from './PageEnd';
import { type TileBadge, VideoTile } from './VideoTile';
import './video-grid.css';

/**
 * 9:16 thumbnails, 3 columns on phones and 5 from 900 px (spec §2 tag grid, §2 rating lists), that load
 * their next page as the end scrolls into view. A tap opens `to(video)` at that video with the list so far.
 */
export function VideoGrid({
  videos,
  to,
  paging,
  badgeOf,
  eagerCount = 6,
  label,
  tileAction,
}: {
  videos: Video[];
  to: (video: Video) => string;
  paging?: GridPaging;
  /** A badge over each tile (the owner's grid: each video's status). */
  badgeOf?: ((video: Video) => TileBadge) | undefined;
  /** The first tiles are above the fold: loaded at once rather than lazily. */
  eagerCount?: number;
  label?: string;
  /**
   * A control laid over a tile (the owner's delete button): a sibling of the tile's link, never inside it, so
   * both stay reachable by keyboard and each keeps its own name.
   */
  tileAction?: (video: Video) => ReactNode;
}) {
  const next = paging?.next ?? null;
  return (
    <>
      <ul className="video-grid video-grid-dense" aria-label={label}>
        {videos.map((video, index) => (
          <li key={video.id} className={tileAction ? 'video-grid-item has-action' : undefined}>
            <VideoTile
              video={video}
              index={index}
              list={videos}
              next={next}
              to={to(video)}
              eager={index < eagerCount}
              badge={badgeOf?.(video)}
              showTitle={false}
            />
            {tileAction?.(video)}
          </li>
        ))}
      </ul>
      {paging && <PageEnd paging={paging} />}
    </>
  );
}
