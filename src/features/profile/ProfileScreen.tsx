import { useAtomValue, useSetAtom } from 'jotai';
import { type CSSProperties, useCallback, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { trackProfileView } from '../../api/tracking';
import { useRequest } from '../../api/useRequest';
import { fetchUser } from '../../api/users';
import type { OwnProfile, PublicUser } from '../../contract';
import { authAtom } from '../../state/auth';
import { ownProfileAtom } from '../../state/ownProfile';
import type { FollowChange } from '../../ui/FollowButton';
import { Link } from '../../ui/Link';
import { NotFound } from '../../ui/NotFound';
import { Spinner } from '../../ui/Spinner';
import { ContestBanners } from './Contests';
import { useImageEditing } from './ImageEditing';
import { OwnerLinks } from './OwnerLinks';
import { ProfileActions, ProfileHero, ProfileStats } from './ProfileHeader';
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

function ProfileView({ user: initial }: { user: PublicUser }) {
  const [user, setUser] = useState(initial);
  const [expanded, setExpanded] = useState(false);
  const auth = useAtomValue(authAtom);
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
  const followChanged = (change: FollowChange) =>
    setUser((u) => (u.id === change.id ? { ...u, ...change } : u));

  return (
    <article className="profile" style={tint}>
      <ProfileHero user={user} onEditImage={canEdit ? images.choose : undefined} />
      {isCreator && <ProfileStats user={user} />}
      <ProfileActions user={user} isOwner={isOwner} onFollowChange={followChanged} />

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
