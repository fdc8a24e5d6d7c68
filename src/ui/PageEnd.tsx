import { useEffect, useRef } from 'react';
import { Spinner } from './Spinner';
import './video-grid.css';

/** Spec §9: the next page loads when the end of the list comes within 50 px of the screen. */
export const SCROLL_THRESHOLD_PX = 50;

/** The state of a paged list as its end shows it (see usePages in src/api). */
export interface GridPaging {
  next: string | null;
  loadingMore: boolean;
  moreFailed: boolean;
  loadMore: () => void;
}

/**
 * The end of an infinitely scrolled list (a video grid, channel cards): asks for the next page as it comes
 * within 50 px of the screen, shows a spinner while it loads and a retry button when it failed.
 */
export function PageEnd({ paging }: { paging: GridPaging }) {
  const endRef = useRef<HTMLDivElement>(null);
  const canLoad = paging.next !== null && !paging.loadingMore && !paging.moreFailed;
  const { loadMore } = paging;

  // Observed anew after every page: a page too short to fill the screen leaves the end in view, and an
  // observer only reports changes, so the fresh one's first report asks for the page after.
  useEffect(() => {
    const end = endRef.current;
    if (!end || !canLoad) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) loadMore();
      },
      { rootMargin: `0px 0px ${SCROLL_THRESHOLD_PX}px 0px` },
    );
    observer.observe(end);
    return () => observer.disconnect();
  }, [canLoad, loadMore]);

  return (
    <div ref={endRef} className="video-grid-end">
      {paging.loadingMore && <Spinner />}
      {paging.moreFailed && (
        <button type="button" className="btn btn-ghost" onClick={paging.loadMore}>
          Couldn't load more. Retry
        </button>
      )}
    </div>
  );
}
