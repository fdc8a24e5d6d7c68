import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { fetchUser } from '../../../api/users';
import type { PublicUser } from '../../../contract';
import { Avatar } from '../../../ui/Avatar';
import { CreatorLink } from '../../../ui/CreatorLink';
import { FollowButton, type FollowChange } from '../../../ui/FollowButton';
import { formatCount } from '../../../ui/format';

/** Wide screens: the current video's creator, with follow, totals and links. */
export function RightSidebar({ creatorId, guest }: { creatorId: number; guest: boolean }) {
  const [creator, setCreator] = useState<PublicUser | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    fetchUser(creatorId, controller.signal).then(setCreator, () => undefined);
    return () => controller.abort();
  }, [creatorId]);

  if (!creator || creator.id !== creatorId)
    return <aside className="sidebar sidebar-right" aria-busy="true" />;

  const followChanged = (change: FollowChange) =>
    setCreator((c) => (c?.id === change.id ? { ...c, ...change } : c));

  return (
    <aside className="sidebar sidebar-right" aria-label="Creator">
      <div
        className="creator-cover"
        style={creator.cover ? { backgroundImage: `url(${creator.cover})` } : undefined}
      />
      <div className="creator-head">
        <Avatar src={creator.avatar} name={creator.name} size={72} live={creator.isLive === 1} />
        <div>
          <Link to={`/${creator.slug}`} className="creator-name">
            {creator.name}
          </Link>
          <p className="creator-slug">@{creator.slug}</p>
        </div>
      </div>
      <FollowButton creator={creator} onChange={followChanged} guest={guest} />
      <dl className="creator-stats">
        <div>
          <dt>Likes</dt>
          <dd>{formatCount(creator.totalLikes)}</dd>
        </div>
        <div>
          <dt>Views</dt>
          <dd>{formatCount(creator.totalVideoViews)}</dd>
        </div>
        <div>
          <dt>Followers</dt>
          <dd>{formatCount(creator.totalFollowers)}</dd>
        </div>
      </dl>
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
    </aside>
  );
}
