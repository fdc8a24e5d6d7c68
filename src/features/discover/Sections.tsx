import type { ReactNode } from 'react';
import type { CreatorCard, Video, WebcamSite } from '../../contract';
import { CreatorChip } from '../../ui/CreatorChip';
import { Link } from '../../ui/Link';
import { VideoTile } from '../../ui/VideoTile';

/** Spec §9: a carousel ends with a 'More Videos' tile once it holds this many videos. */
export const MORE_TILE_AT = 10;

export function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `discover-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className="discover-section" aria-labelledby={id}>
      <h2 id={id} className="discover-section-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function CreatorRow({ creators }: { creators: CreatorCard[] }) {
  return (
    <ul className="discover-row creator-row">
      {creators.map((c) => (
        <li key={c.id}>
          <CreatorChip creator={c} size={68} />
        </li>
      ))}
    </ul>
  );
}

export function SiteRow({ sites }: { sites: WebcamSite[] }) {
  return (
    <ul className="discover-row site-row">
      {sites.map((s) => (
        <li key={s.slug}>
          <Link
            to={`/discover/webcam-site/${encodeURIComponent(s.slug)}/feed`}
            // The feed is titled with the site's name, which its URL (the slug) does not carry.
            state={{ siteName: s.name }}
            className="site-card"
          >
            <span className="site-card-icon">
              {s.icon ? <img src={s.icon} alt="" width="44" height="44" loading="lazy" /> : s.name.charAt(0)}
            </span>
            <span className="site-card-name">{s.name}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** A ranked carousel; tapping a video opens the group's feed at it, with the carousel as its list. */
export function Carousel({ videos, feed, eager }: { videos: Video[]; feed: string; eager: boolean }) {
  return (
    <ul className="discover-row carousel">
      {videos.map((video, index) => (
        <li key={video.id}>
          <VideoTile video={video} index={index} list={videos} to={feed} eager={eager && index < 3} />
        </li>
      ))}
      {videos.length >= MORE_TILE_AT && (
        <li>
          <Link to={feed} className="video-tile more-tile">
            <span className="video-tile-media more-tile-media">
              <span className="more-tile-text">More Videos</span>
            </span>
          </Link>
        </li>
      )}
    </ul>
  );
}
