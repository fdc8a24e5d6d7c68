import { useEffect, useState } from 'react';
import { fetchUser, userVideosPath } from '../../../api/users';
import { fetchFeedPage } from '../../../api/videos';
import type { PublicUser, Video } from '../../../contract';
import { Avatar } from '../../../ui/Avatar';
import { CreatorLink } from '../../../ui/CreatorLink';
import { FollowButton, type FollowChange } from '../../../ui/FollowButton';
import { formatCount, tileOf } from '../../../ui/format';
import { Link } from '../../../ui/Link';
import { VerifiedIcon } from '../../../ui/more-icons';
import './sidebar.css';

/** How many of the creator's latest videos the card shows: one row of three. */
const LATEST_SHOWN = 3;

/**
 * Wide screens: the current video's creator as a profile card (spec §1: cover, avatar, follow button, likes,
 * views, followers, links), with their description and latest videos so the column reads as a profile.
 */
export function RightSidebar({
  creatorId,
  guest,
  videoId,
}: {
  creatorId: number;
  guest: boolean;
  /** The video on screen: left out of "Latest", the viewer is watching it. */
  videoId: number | undefined;
}) {
  const [creator, setCreator] = useState<PublicUser | null>(null);
  const [latest, setLatest] = useState<{ creatorId: number; videos: Video[] } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchUser(creatorId, controller.signal).then(setCreator, () => undefined);
    // The card is complete without them: a failure leaves the row out.
    fetchFeedPage(userVideosPath(creatorId), controller.signal).then(
      (page) => setLatest({ creatorId, videos: page.data }),
      () => undefined,
    );
    return () => controller.abort();
  }, [creatorId]);

  if (!creator || creator.id !== creatorId)
    return <aside className="sidebar sidebar-right" aria-label="Creator" aria-busy="true" />;

  const followChanged = (change: FollowChange) =>
    setCreator((c) => (c?.id === change.id ? { ...c, ...change } : c));
  const others =
    latest?.creatorId === creatorId
      ? latest.videos.filter((v) => v.id !== videoId).slice(0, LATEST_SHOWN)
      : [];

  return (
    <aside className="sidebar sidebar-right" aria-label="Creator">
      <div className="creator-card">
        <div
          className="creator-cover"
          style={creator.cover ? { backgroundImage: `url(${creator.cover})` } : undefined}
        />
        <div className="creator-card-body">
          <Avatar src={creator.avatar} name={creator.name} size={84} live={creator.isLive === 1} />
          <Link to={`/${creator.slug}`} className="creator-name" title={creator.name}>
            <span className="creator-name-text">{creator.name}</span>
            {creator.isVerified === 'approved' && (
              <span className="creator-verified" role="img" aria-label="Verified">
                <VerifiedIcon />
              </span>
            )}
          </Link>
          {creator.type !== 'user' && <p className="creator-slug">@{creator.slug}</p>}
          <dl className="creator-stats">
            <div>
              <dd>{formatCount(creator.totalLikes)}</dd>
              <dt>Likes</dt>
            </div>
            <div>
              <dd>{formatCount(creator.totalVideoViews)}</dd>
              <dt>Views</dt>
            </div>
            <div>
              <dd>{formatCount(creator.totalFollowers)}</dd>
              <dt>Followers</dt>
            </div>
          </dl>
          <FollowButton creator={creator} onChange={followChanged} guest={guest} />
        </div>
      </div>
      {creator.links.length > 0 && (
        <ul className="creator-links">
          {creator.links.map((link) => (
            <li key={link.id}>
              <CreatorLink link={link} location="sidebar" className="creator-link">
                {link.isLive === 1 && <span className="live-dot" aria-hidden="true" />}
                {link.name}
              </CreatorLink>
            </li>
          ))}
        </ul>
      )}
      {creator.description && <p className="creator-description">{creator.description}</p>}
      {others.length > 0 && (
        <section className="creator-latest" aria-label={`Latest from ${creator.name}`}>
          <h2 className="sidebar-title">Latest videos</h2>
          <ul className="creator-latest-grid">
            {others.map((video) => (
              <li key={video.id}>
                <Link to={`/video/${video.id}/${video.slug}`} className="sidebar-thumb">
                  {tileOf(video) && <img src={tileOf(video) ?? undefined} alt="" loading="lazy" />}
                  <span className="visually-hidden">{video.title}</span>
                  <span className="sidebar-counts">
                    <span>{formatCount(video.viewCount)} views</span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
          <Link to={`/${creator.slug}`} className="creator-all">
            View profile
          </Link>
        </section>
      )}
    </aside>
  );
}
