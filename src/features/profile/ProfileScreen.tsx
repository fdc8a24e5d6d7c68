import type { CSSProperties } from 'react';
import { useParams } from 'react-router';
import { useRequest } from '../../api/useRequest';
import { fetchUser } from '../../api/users';
import type { PublicUser } from '../../contract';
import { Avatar } from '../../ui/Avatar';
import { BackButton } from '../../ui/BackButton';
import { formatCount } from '../../ui/format';
import { VerifiedIcon } from '../../ui/icons';
import { NotFound } from '../../ui/NotFound';
import { Spinner } from '../../ui/Spinner';
import './profile.css';

/** Only a plain hex colour may tint the page: the value comes from another user. */
const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

export function ProfileScreen() {
  const { slug = '' } = useParams();
  const user = useRequest(`user:${slug}`, (signal) => fetchUser(slug, signal));

  if (user.status === 'loading') return <Spinner fill />;
  // Spec: any failure to fetch the user shows the not-found screen (which then returns home).
  if (user.status === 'error') return <NotFound />;
  return <ProfileView user={user.data} />;
}

function ProfileView({ user }: { user: PublicUser }) {
  const tint =
    user.color && HEX_COLOR.test(user.color)
      ? ({ '--profile-color': user.color } as CSSProperties)
      : undefined;
  const isCreator = user.type !== 'user';
  const stats = [
    { label: 'Likes', value: user.totalLikes },
    { label: 'Views', value: user.totalVideoViews },
    { label: 'Followers', value: user.totalFollowers },
  ];

  return (
    <article className="profile" style={tint}>
      <div className="profile-cover">
        {user.cover && <img src={user.cover} alt="" className="profile-cover-img" decoding="async" />}
        <BackButton className="profile-back" />
      </div>

      <div className="profile-head">
        <Avatar
          src={user.avatar}
          name={user.name}
          size={104}
          live={user.isLive === 1}
          className="profile-avatar"
        />
        {user.isLive === 1 && <span className="live-badge profile-live">LIVE</span>}
        <h1 className="profile-name">
          {user.name}
          {user.isVerified === 'approved' && (
            <span className="profile-verified" role="img" aria-label="Verified">
              <VerifiedIcon />
            </span>
          )}
        </h1>
        {isCreator && <p className="profile-slug">@{user.slug}</p>}
      </div>

      {isCreator && (
        <dl className="profile-stats">
          {stats.map(({ label, value }) => (
            <div key={label} className="profile-stat">
              <dt>{label}</dt>
              <dd>{formatCount(value)}</dd>
            </div>
          ))}
        </dl>
      )}

      {user.description && <p className="profile-description">{user.description}</p>}
    </article>
  );
}
