import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchFeedPage } from '../../../api/videos';
import type { Video } from '../../../contract';
import { formatCount, tileOf } from '../../../ui/format';
import { EyeIcon, HeartIcon } from '../../../ui/icons';
import { Link } from '../../../ui/Link';
import { type AdPlacement, mixAds, SIDEBAR_PAGE_SIZE, SIDEBAR_STOP_BELOW, sidebarColumns } from './sidebar';
import './sidebar.css';

/** Wide screens: recommended thumbnails with view and like counts, ad tiles mixed in, endless by pages of 20. */
export function LeftSidebar({ ads }: { ads: AdPlacement[] }) {
  const [videos, setVideos] = useState<Video[]>([]);
  const [next, setNext] = useState<string | null>(`/v1/sidebar/left?per_page=${SIDEBAR_PAGE_SIZE}`);
  const [columns, setColumns] = useState(3);
  const loading = useRef(false);
  const rootRef = useRef<HTMLElement>(null);
  const endRef = useRef<HTMLDivElement>(null);

  const loadMore = useCallback(() => {
    if (!next || loading.current) return;
    loading.current = true;
    fetchFeedPage(next).then(
      (page) => {
        setVideos((known) => [...known, ...page.data.filter((v) => !known.some((k) => k.id === v.id))]);
        // Spec §9: fewer than 10 back means the list is exhausted, whatever links.next says.
        setNext(page.data.length < SIDEBAR_STOP_BELOW ? null : page.links.next);
        loading.current = false;
      },
      () => {
        // Failure stops loading for now; scrolling again retries the same page.
        loading.current = false;
      },
    );
  }, [next]);

  useEffect(() => {
    const end = endRef.current;
    if (!end) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) loadMore();
    });
    observer.observe(end);
    return () => observer.disconnect();
  }, [loadMore]);

  useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setColumns(sidebarColumns(entry.contentRect.width));
    });
    observer.observe(root);
    return () => observer.disconnect();
  }, []);

  const sidebarAds = ads.filter((a) => a.type === 'banner' || a.type === 'native');
  const every = sidebarAds[0]?.every ?? 8;
  return (
    <aside ref={rootRef} className="sidebar sidebar-left" aria-label="Recommended videos">
      <h2 className="sidebar-title">Recommended</h2>
      <ul className="sidebar-grid" style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
        {mixAds(videos, sidebarAds, every).map((entry, i) =>
          'item' in entry ? (
            <li key={entry.item.id}>
              <Link to={`/video/${entry.item.id}/${entry.item.slug}`} className="sidebar-thumb">
                {tileOf(entry.item) && <img src={tileOf(entry.item) ?? undefined} alt="" loading="lazy" />}
                {/* The title names the link with the counts it shows (not an aria-label that hides them). */}
                <span className="visually-hidden">{entry.item.title}</span>
                <span className="sidebar-counts">
                  <span>
                    <EyeIcon /> {formatCount(entry.item.viewCount)}
                    <span className="visually-hidden"> views</span>
                  </span>
                  <span>
                    <HeartIcon /> {formatCount(entry.item.likeCount)}
                    <span className="visually-hidden"> likes</span>
                  </span>
                </span>
              </Link>
            </li>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same placement repeats; its place is its identity.
            <li key={`ad-${i}`}>
              <a
                className="sidebar-thumb sidebar-ad"
                href={entry.ad.href ?? '#'}
                data-slot-id={entry.ad.slotId}
                rel="sponsored noopener"
              >
                {entry.ad.src && <img src={entry.ad.src} alt={entry.ad.name} loading="lazy" />}
                <span className="sidebar-ad-label">Ad</span>
              </a>
            </li>
          ),
        )}
      </ul>
      <div ref={endRef} className="sidebar-end" />
    </aside>
  );
}
