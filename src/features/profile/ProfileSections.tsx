import type { ReactNode } from 'react';
import { fetchFollowingModels, LIKED_VIDEOS_PATH } from '../../api/profile';
import { useRequest } from '../../api/useRequest';
import { userVideosPath } from '../../api/users';
import { useVideoPages } from '../../api/useVideoPages';
import { type Link, messages, type Video } from '../../contract';
import { CreatorChip } from '../../ui/CreatorChip';
import { CreatorLink } from '../../ui/CreatorLink';
import { ExternalIcon, LinkIcon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { VideoGrid } from '../../ui/VideoGrid';
import { truncateDescription, useDescriptionLimit } from './description';

/** Spec §9: the followed-models preview shows up to 12. */
export const FOLLOWING_PREVIEW = 12;

export function ProfileSection({
  title,
  action,
  children,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  const id = `profile-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section className="profile-section" aria-labelledby={id}>
      <div className="profile-section-head">
        <h2 id={id} className="profile-section-title">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

/** Spec §9: cut by the window's width, with show more / show less. */
export function Description({
  text,
  expanded,
  onToggle,
}: {
  text: string;
  expanded: boolean;
  onToggle: () => void;
}) {
  const limit = useDescriptionLimit();
  const cut = truncateDescription(text, limit);
  return (
    <div className="profile-description">
      <p className="profile-description-text">{expanded ? text : cut.text}</p>
      {cut.truncated && (
        <button type="button" className="profile-more" aria-expanded={expanded} onClick={onToggle}>
          {expanded ? 'Show less' : 'Show more'}
        </button>
      )}
    </div>
  );
}

/** The creator's outbound links; each click is counted for the creator's stats (spec §7). */
export function LinksList({ links }: { links: Link[] }) {
  if (links.length === 0) return <p className="profile-empty">{messages.profile.noLinks}</p>;
  return (
    <ul className="profile-links">
      {links.map((link) => (
        <li key={link.id}>
          <CreatorLink
            link={link}
            location="profile"
            className={`profile-link${link.isImportant === 1 ? ' is-important' : ''}`}
          >
            <span className="profile-link-icon">
              {link.icon ? (
                <img src={link.icon} alt="" width="28" height="28" loading="lazy" />
              ) : (
                <LinkIcon />
              )}
            </span>
            <span className="profile-link-name">{link.name || link.url}</span>
            {link.isLive === 1 && (
              <span className="profile-link-live">
                <span className="live-dot" aria-hidden="true" />
                Live
              </span>
            )}
            <ExternalIcon className="profile-link-out" />
          </CreatorLink>
        </li>
      ))}
    </ul>
  );
}

function PagedGrid({
  firstUrl,
  to,
  empty,
  showStatus = false,
  label,
}: {
  firstUrl: string;
  to: (video: Video) => string;
  empty: string;
  showStatus?: boolean;
  label: string;
}) {
  const pages = useVideoPages(firstUrl);
  if (pages.status === 'loading')
    return (
      <div className="profile-grid-status">
        <Spinner />
      </div>
    );
  if (pages.status === 'error')
    return (
      <div className="profile-grid-status" role="alert">
        <p className="profile-empty">Couldn't load videos.</p>
        <button type="button" className="btn btn-ghost" onClick={pages.retry}>
          Retry
        </button>
      </div>
    );
  if (pages.videos.length === 0) return <p className="profile-empty">{empty}</p>;
  return <VideoGrid videos={pages.videos} to={to} paging={pages} showStatus={showStatus} label={label} />;
}

/** A creator's uploads; a tap opens the profile feed at that video (spec §2: /{slug}/feed). */
export function ProfileVideos({ slug, owner }: { slug: string; owner: boolean }) {
  const feed = `/${encodeURIComponent(slug)}/feed`;
  return (
    <PagedGrid
      firstUrl={userVideosPath(slug)}
      to={() => feed}
      empty={messages.profile.noVideos}
      // Spec §4: only the owner sees (and is sent) every status.
      showStatus={owner}
      label="Videos"
    />
  );
}

/** A plain user's own likes; a tap opens that video's feed with the liked list as its list. */
export function LikedVideos() {
  return (
    <PagedGrid
      firstUrl={LIKED_VIDEOS_PATH}
      to={(video) => `/video/${video.id}/${encodeURIComponent(video.slug)}`}
      empty="Videos you like show up here."
      label="Liked videos"
    />
  );
}

/** A plain user's own profile: the first creators they follow (spec §2, up to 12). */
export function FollowingPreview({ userId }: { userId: number }) {
  const models = useRequest(`following-models:${userId}`, (signal) => fetchFollowingModels(signal));
  if (models.status === 'loading')
    return (
      <div className="profile-grid-status">
        <Spinner />
      </div>
    );
  if (models.status === 'error')
    return (
      <div className="profile-grid-status" role="alert">
        <button type="button" className="btn btn-ghost" onClick={models.retry}>
          Retry
        </button>
      </div>
    );
  if (models.data.length === 0) return <p className="profile-empty">{messages.profile.notFollowing}</p>;
  return (
    <ul className="profile-following">
      {models.data.slice(0, FOLLOWING_PREVIEW).map((m) => (
        <li key={m.id}>
          <CreatorChip creator={m} size={64} />
        </li>
      ))}
    </ul>
  );
}
