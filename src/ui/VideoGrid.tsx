import { type ReactNode, useEffect, useRef } from 'react';
import type { Video } from '../contract';
import { Spinner } from './Spinner';
import { VideoTile } from './VideoTile';
import './video-grid.css';

/** Spec §9: the next page loads when the end of the list comes within 50 px of the screen. */
export const SCROLL_THRESHOLD_PX = 50;

/** The state of a paged list as a grid shows it (see useVideoPages in src/api). */
export interface GridPaging {
  next: string | null;
  loadingMore: boolean;
  moreFailed: boolean;
  loadMore: () => void;
}

/**
 * 9:16 thumbnails, 3 columns on phones and 5 from 900 px (spec §2 tag grid, §2 rating lists), that load
 * their next page as the end scrolls into view. A tap opens `to(video)` at that video with the list so far.
 */
export function VideoGrid({
  videos,
  to,
  paging,
  showStatus = false,
  eagerCount = 6,
  label,
  tileAction,
}: {
  videos: Video[];
  to: (video: Video) => string;
  paging?: GridPaging;
  showStatus?: boolean;
  /** The first tiles are above the fold: loaded at once rather than lazily. */
  eagerCount?: number;
  label?: string;
  /**
   * A control laid over a tile (the owner's delete button): a sibling of the tile's link, never inside it, so
   * both stay reachable by keyboard and each keeps its own name.
   */
  tileAction?: (video: Video) => ReactNode;
}) {
  const endRef = useRef<HTMLDivElement>(null);
  const canLoad = paging !== undefined && paging.next !== null && !paging.loadingMore && !paging.moreFailed;
  const loadMore = paging?.loadMore;

  // Observed anew after every page: a page too short to fill the screen leaves the end in view, and an
  // observer only reports changes, so the fresh one's first report asks for the page after.
  useEffect(() => {
    const end = endRef.current;
    if (!end || !canLoad || !loadMore) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) loadMore();
      },
      { rootMargin: `0px 0px ${SCROLL_THRESHOLD_PX}px 0px` },
    );
    observer.observe(end);
    return () => observer.disconnect();
  }, [canLoad, loadMore]);

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
              showStatus={showStatus}
              showTitle={false}
            />
            {tileAction?.(video)}
          </li>
        ))}
      </ul>
      {paging && (
        <div ref={endRef} className="video-grid-end">
          {paging.loadingMore && <Spinner />}
          {paging.moreFailed && (
            <button type="button" className="btn btn-ghost" onClick={paging.loadMore}>
              Couldn't load more. Retry
            </button>
          )}
        </div>
      )}
    </>
  );
}
