import { useAtomValue, useSetAtom } from 'jotai';
import { type ComponentType, type CSSProperties, useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { trackProfileView } from '../../api/tracking';
import { useRequest } from '../../api/useRequest';
import { fetchUser } from '../../api/users';
import { messages, type OwnProfile, type PublicUser } from '../../contract';
import { authAtom } from '../../state/auth';
import { ownProfileAtom } from '../../state/ownProfile';
import { showToastAtom } from '../../state/toast';
import { Avatar } from '../../ui/Avatar';
import { BackButton } from '../../ui/BackButton';
import { FollowButton, type FollowChange } from '../../ui/FollowButton';
import { formatCount } from '../../ui/format';
import { ChartIcon, HelpIcon, ShareIcon, ShieldIcon, SlidersIcon, VerifiedIcon } from '../../ui/icons';
import { CameraIcon } from '../../ui/more-icons';
import { NotFound } from '../../ui/NotFound';
import { Spinner } from '../../ui/Spinner';
import { ContestBanners } from './Contests';
import { useImageEditing } from './ImageEditing';
import { OwnerLinks } from './OwnerLinks';
import {
  Description,
  FollowingPreview,
  LikedVideos,
  LinksList,
  OwnerVideos,
  ProfileSection,
  ProfileVideos,
  VerificationPrompt,
} from './ProfileSections';
import './profile.css';

/** Only a plain hex colour may tint the page: the value comes from another user. */
const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

export function ProfileScreen() {
  const { slug = '' } = useParams();
  const user = useRequest(`user:${slug}`, (signal) => fetchUser(slug, signal));

  if (user.status === 'loading') return <Spinner fill />;
  // Spec: any failure to fetch the user shows the not-found screen (which then returns home).
  if (user.status === 'error') return <NotFound />;
  // Keyed: another profile is another visit (its own view, follow state and expanded description).
  return <ProfileView key={user.data.id} user={user.data} />;
}

/** Web Share where the platform has it (the phone's share sheet), else the link on the clipboard. */
async function shareProfile(user: PublicUser): Promise<string | null> {
  const url = `${window.location.origin}/${encodeURIComponent(user.slug)}`;
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({ title: user.name, url });
      return null;
    } catch (error) {
      // The viewer closed the share sheet: nothing to say.
      if (error instanceof DOMException && error.name === 'AbortError') return null;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    return messages.profile.linkCopied;
  } catch {
    return `Copy this link: ${url}`;
  }
}

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

function ProfileView({ user: initial }: { user: PublicUser }) {
  const [user, setUser] = useState(initial);
  const [expanded, setExpanded] = useState(false);
  const auth = useAtomValue(authAtom);
  const showToast = useSetAtom(showToastAtom);
  const setOwnProfile = useSetAtom(ownProfileAtom);
  const isOwner = auth !== null && auth.userId === user.id;
  const isCreator = user.type !== 'user';
  const canEdit = isOwner && isCreator;

  // Spec §7: one profile view per visit, never for one's own profile. The ref outlives StrictMode's second
  // effect run, which would otherwise count the visit twice.
  const viewed = useRef(false);
  useEffect(() => {
    if (isOwner || viewed.current) return;
    viewed.current = true;
    void trackProfileView(user.id);
  }, [isOwner, user.id]);

  /** A profile update answered with the account as it is now: the page and every account screen follow. */
  const takeOwn = useCallback(
    (own: OwnProfile) => {
      setOwnProfile(own);
      setUser((u) => ({ ...u, avatar: own.avatar, cover: own.cover, links: own.links }));
    },
    [setOwnProfile],
  );
  const images = useImageEditing(takeOwn);

  const tint =
    user.color && HEX_COLOR.test(user.color)
      ? ({ '--profile-color': user.color } as CSSProperties)
      : undefined;
  const stats = [
    { label: 'Likes', value: user.totalLikes },
    { label: 'Views', value: user.totalVideoViews },
    { label: 'Followers', value: user.totalFollowers },
  ];
  const followChanged = (change: FollowChange) =>
    setUser((u) => (u.id === change.id ? { ...u, ...change } : u));
  const share = () =>
    void shareProfile(user).then((text) => {
      if (text) showToast(text, { long: text !== messages.profile.linkCopied });
    });
  const canFollow = isCreator && !isOwner;
  const tools = isOwner ? ownerTools(user) : [];

  return (
    <article className="profile" style={tint}>
      <div className="profile-cover">
        {user.cover && <img src={user.cover} alt="" className="profile-cover-img" decoding="async" />}
        {canEdit && (
          <button
            type="button"
            className="profile-cover-edit"
            aria-label="Edit cover image"
            onClick={() => images.choose('profile_cover')}
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
          {canEdit && (
            <button
              type="button"
              className="profile-avatar-edit"
              aria-label="Edit profile image"
              onClick={() => images.choose('profile_photo')}
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

      {isOwner ? (
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
      ) : (
        <div className={`profile-actions${canFollow ? '' : ' is-share-only'}`}>
          {canFollow && <FollowButton creator={user} onChange={followChanged} className="profile-follow" />}
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
      )}

      {canEdit && <VerificationPrompt status={user.isVerified} />}

      {user.description && (
        <Description text={user.description} expanded={expanded} onToggle={() => setExpanded((e) => !e)} />
      )}

      {isCreator && <ContestBanners contests={user.contests} />}

      {canEdit ? (
        <OwnerLinks links={user.links} onChange={takeOwn} />
      ) : (
        isCreator && (
          <ProfileSection title="Links">
            <LinksList links={user.links} />
          </ProfileSection>
        )
      )}

      {isCreator && (
        <ProfileSection title="Videos">
          {canEdit ? <OwnerVideos slug={user.slug} /> : <ProfileVideos slug={user.slug} />}
        </ProfileSection>
      )}

      {isOwner && !isCreator && (
        <>
          <ProfileSection
            title="Following"
            action={
              <Link to="/account/following" className="profile-section-link">
                See all
              </Link>
            }
          >
            <FollowingPreview userId={user.id} />
          </ProfileSection>
          <ProfileSection title="Liked videos">
            <LikedVideos />
          </ProfileSection>
        </>
      )}

      {images.element}
    </article>
  );
}
