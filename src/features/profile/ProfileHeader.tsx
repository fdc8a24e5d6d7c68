// The top of a profile page: cover, avatar and name, the counts, and the row of actions (follow and share
// for a visitor, share and the account tools for the owner).
import { useSetAtom } from 'jotai';
import type { ComponentType, CSSProperties } from 'react';
import type { ProfileImageField, PublicUser } from '../../contract';
import { showToastAtom } from '../../state/toast';
import { Avatar } from '../../ui/Avatar';
import { BackButton } from '../../ui/BackButton';
import { FollowButton, type FollowChange } from '../../ui/FollowButton';
import { formatCount } from '../../ui/format';
import { SlidersIcon } from '../../ui/icons';
import { Link } from '../../ui/Link';
import { CameraIcon, ChartIcon, HelpIcon, ShareIcon, ShieldIcon, VerifiedIcon } from '../../ui/more-icons';
import { LINK_COPIED, shareLink } from '../../ui/share';

/** Cover, avatar, name and handle; with `onEditImage` (the owner of a creator profile), the pictures' edit buttons. */
export function ProfileHero({
  user,
  onEditImage,
}: {
  user: PublicUser;
  onEditImage?: (field: ProfileImageField) => void;
}) {
  return (
    <>
      <div className="profile-cover">
        {user.cover && <img src={user.cover} alt="" className="profile-cover-img" decoding="async" />}
        {onEditImage && (
          <button
            type="button"
            className="profile-cover-edit"
            aria-label="Edit cover image"
            onClick={() => onEditImage('profile_cover')}
          >
            <span className="profile-cover-edit-pill" aria-hidden="true">
              <CameraIcon />
              Edit cover
            </span>
          </button>
        )}
        <BackButton className="profile-back" />
      </div>

      <div className="profile-head">
        <div className="profile-avatar-wrap">
          <Avatar
            src={user.avatar}
            name={user.name}
            size={104}
            live={user.isLive === 1}
            className="profile-avatar"
          />
          {onEditImage && (
            <button
              type="button"
              className="profile-avatar-edit"
              aria-label="Edit profile image"
              onClick={() => onEditImage('profile_photo')}
            >
              <span className="profile-avatar-edit-badge" aria-hidden="true">
                <CameraIcon />
              </span>
            </button>
          )}
        </div>
        {user.isLive === 1 && <span className="live-badge profile-live">LIVE</span>}
        <h1 className="profile-name">
          <span className="profile-name-text">{user.name}</span>
          {user.isVerified === 'approved' && (
            <span className="profile-verified" role="img" aria-label="Verified">
              <VerifiedIcon />
            </span>
          )}
        </h1>
        {user.type !== 'user' && <p className="profile-slug">@{user.slug}</p>}
      </div>
    </>
  );
}

export function ProfileStats({ user }: { user: PublicUser }) {
  const stats = [
    { label: 'Likes', value: user.totalLikes },
    { label: 'Views', value: user.totalVideoViews },
    { label: 'Followers', value: user.totalFollowers },
  ];
  return (
    <dl className="profile-stats">
      {stats.map(({ label, value }) => (
        <div key={label} className="profile-stat">
          <dt>{label}</dt>
          <dd>{formatCount(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The profile's own link (spec §2: /{slug}), through the phone's share sheet or the clipboard. */
const shareProfile = (user: PublicUser) =>
  shareLink(user.name, `${window.location.origin}/${encodeURIComponent(user.slug)}`);

interface OwnerTool {
  to: string;
  label: string;
  Icon: ComponentType<{ className?: string }>;
}

/** Spec §2/§6: help and stats for models, settings for every owner, verification until it is approved. */
function ownerTools(user: PublicUser): OwnerTool[] {
  const tools: OwnerTool[] = [];
  if (user.type === 'model') {
    tools.push({ to: '/account/help', label: 'Help', Icon: HelpIcon });
    tools.push({ to: '/account/stats', label: 'Stats', Icon: ChartIcon });
  }
  tools.push({ to: '/account/settings', label: 'Settings', Icon: SlidersIcon });
  if (user.type !== 'user' && user.isVerified !== 'approved')
    tools.push({ to: '/account/settings/validation', label: 'Verify identity', Icon: ShieldIcon });
  return tools;
}

/** The owner's account tools beside Share, or a visitor's Follow (creators only) and Share. */
export function ProfileActions({
  user,
  isOwner,
  onFollowChange,
}: {
  user: PublicUser;
  isOwner: boolean;
  onFollowChange: (change: FollowChange) => void;
}) {
  const showToast = useSetAtom(showToastAtom);
  const share = () =>
    void shareProfile(user).then((text) => {
      if (text) showToast(text, { long: text !== LINK_COPIED });
    });

  if (isOwner) {
    const tools = ownerTools(user);
    return (
      // The owner's row: sharing beside the account tools, one size of button for all.
      <nav
        className="profile-tools"
        aria-label="Your account"
        style={{ '--tools': tools.length + 1 } as CSSProperties}
      >
        <button type="button" className="profile-tool" onClick={share}>
          <ShareIcon className="profile-tool-icon" />
          <span>Share</span>
        </button>
        {tools.map(({ to, label, Icon }) => (
          <Link key={to} to={to} className="profile-tool">
            <Icon className="profile-tool-icon" />
            <span>{label}</span>
          </Link>
        ))}
      </nav>
    );
  }
  const canFollow = user.type !== 'user';
  return (
    <div className={`profile-actions${canFollow ? '' : ' is-share-only'}`}>
      {canFollow && <FollowButton creator={user} onChange={onFollowChange} className="profile-follow" />}
      <button
        type="button"
        className="btn btn-ghost profile-share"
        onClick={share}
        aria-label={canFollow ? 'Share profile' : undefined}
      >
        <ShareIcon />
        {!canFollow && <span>Share profile</span>}
      </button>
    </div>
  );
}
