import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { fetchUser, postFollow } from '../../api/users';
import type { PublicUser } from '../../contract';
import { Avatar } from '../../ui/Avatar';
import { formatCount } from '../../ui/format';

/** Wide screens: the current video's creator, with follow, totals and links. */
export function RightSidebar({ creatorId, guest }: { creatorId: number; guest: boolean }) {
  const [creator, setCreator] = useState<PublicUser | null>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const controller = new AbortController();
    fetchUser(creatorId, controller.signal).then(setCreator, () => undefined);
    return () => controller.abort();
  }, [creatorId]);

  if (!creator || creator.id !== creatorId)
    return <aside className="sidebar sidebar-right" aria-busy="true" />;

  const toggleFollow = () => {
    // Spec §6: a guest's follow goes to sign-up.
    if (guest) {
      navigate('/register');
      return;
    }
    const follow = !creator.isFollowing;
    setCreator({ ...creator, isFollowing: follow });
    postFollow(creator.id, follow).then(
      (res) => setCreator((c) => (c ? { ...c, ...res } : c)),
      () => setCreator((c) => (c ? { ...c, isFollowing: !follow } : c)),
    );
  };

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
      <button
        type="button"
        className={`btn ${creator.isFollowing ? 'btn-ghost' : 'btn-primary'}`}
        onClick={toggleFollow}
      >
        {creator.isFollowing ? 'Following' : 'Follow'}
      </button>
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
              <a href={link.url} target="_blank" rel="noopener nofollow" className="creator-link">
                {link.isLive === 1 && <span className="live-dot" aria-hidden="true" />}
                {link.name}
              </a>
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
