import { useSetAtom } from 'jotai';
import { type ReactNode, useMemo, useState } from 'react';
import { errorText } from '../../api/errors';
import { fetchFollowingModels, LIKED_VIDEOS_PATH } from '../../api/profile';
import { useRequest } from '../../api/useRequest';
import { userVideosPath } from '../../api/users';
import { useVideoPages } from '../../api/useVideoPages';
import { deleteVideo } from '../../api/videos';
import {
  type Link as CreatorLinkData,
  messages,
  type VerificationStatus,
  type Video,
  type VideoStatus,
} from '../../contract';
import { useKeptScroll } from '../../state/historyEntry';
import { showToastAtom } from '../../state/toast';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { CreatorChip } from '../../ui/CreatorChip';
import { CreatorLink } from '../../ui/CreatorLink';
import { Link } from '../../ui/Link';
import { ExternalIcon, LinkIcon, ShieldIcon, TrashIcon } from '../../ui/more-icons';
import { Spinner } from '../../ui/Spinner';
import { LoadFailed } from '../../ui/StateMessage';
import { VideoGrid } from '../../ui/VideoGrid';
import { statusLabel, type TileBadge } from '../../ui/VideoTile';
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

/**
 * The creator's outbound links; each click is counted for the creator's stats (spec §7). With `onDelete`
 * (the owner) every row gets a delete button beside its link.
 */
export function LinksList({
  links,
  onDelete,
}: {
  links: CreatorLinkData[];
  onDelete?: (link: CreatorLinkData) => void;
}) {
  if (links.length === 0) return <p className="profile-empty">{messages.profile.noLinks}</p>;
  return (
    <ul className="profile-links">
      {links.map((link) => (
        <li key={link.id} className={onDelete ? 'profile-link-row' : undefined}>
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
          {onDelete && (
            <button
              type="button"
              className="profile-link-delete"
              aria-label={`Delete link ${link.name || link.url}`}
              onClick={() => onDelete(link)}
            >
              <TrashIcon />
            </button>
          )}
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
  statuses,
  tileAction,
  keep = false,
}: {
  firstUrl: string;
  to: (video: Video) => string;
  empty: string;
  showStatus?: boolean;
  label: string;
  /** Statuses known here before the server lists them (a delete under way). */
  statuses?: Readonly<Record<number, VideoStatus>>;
  tileAction?: (video: Video) => ReactNode;
  /** Back from the feed opened here, the pages and the scroll are as they were (see usePages). */
  keep?: boolean;
}) {
  const pages = useVideoPages(firstUrl, { keep });
  useKeptScroll(keep && pages.status === 'ready');
  const videos = useMemo(
    () =>
      statuses && pages.status === 'ready'
        ? pages.videos.map((video) => {
            const status = statuses[video.id];
            return status ? { ...video, status } : video;
          })
        : pages.videos,
    [pages.videos, pages.status, statuses],
  );
  if (pages.status === 'loading')
    return (
      <div className="profile-grid-status">
        <Spinner />
      </div>
    );
  if (pages.status === 'error')
    return <LoadFailed compact title="Couldn't load videos" error={pages.error} onRetry={pages.retry} />;
  if (videos.length === 0) return <p className="profile-empty">{empty}</p>;
  return (
    <>
      {showStatus && <StatusNotes videos={videos} />}
      <VideoGrid
        videos={videos}
        to={to}
        paging={pages}
        badgeOf={showStatus ? ownerBadge : undefined}
        label={label}
        tileAction={tileAction}
      />
    </>
  );
}

/**
 * Spec §4: the owner sees each video's status capitalised; a playable upload the operators have not approved
 * yet reads "In review", not "Approved".
 */
const ownerBadge = (video: Video): TileBadge =>
  video.inReview
    ? { text: 'In review', tone: 'review' }
    : { text: statusLabel(video.status), tone: video.status };

/**
 * What the owner's badges cannot hold: why a video was not approved or failed (the operator's words, also
 * mailed), and that uploads in review go out once approved.
 */
function StatusNotes({ videos }: { videos: Video[] }) {
  const refused = videos.filter((v) => (v.status === 'rejected' || v.status === 'error') && v.statusReason);
  const waiting = videos.filter((v) => v.inReview).length;
  if (refused.length === 0 && waiting === 0) return null;
  const note = (v: Video) => (
    <li key={v.id} className={`is-${v.status}`}>
      <strong>{v.title || 'Untitled video'}</strong>
      {v.status === 'rejected' ? ' was not approved: ' : ' failed: '}
      {v.statusReason}
    </li>
  );
  // The newest two in full; more stay one tap away, so the grid is not pushed off the screen.
  const [shown, rest] = [refused.slice(0, NOTES_SHOWN), refused.slice(NOTES_SHOWN)];
  return (
    <div className="profile-status-notes">
      <ul>
        {waiting > 0 && (
          <li className="is-review">
            {waiting === 1 ? '1 video waits' : `${waiting} videos wait`} for review: our team checks every
            upload before it goes public, and mails you when it is decided.
          </li>
        )}
        {shown.map(note)}
      </ul>
      {rest.length > 0 && (
        <details>
          <summary>
            {rest.length === 1 ? '1 more video' : `${rest.length} more videos`} not approved or failed
          </summary>
          <ul>{rest.map(note)}</ul>
        </details>
      )}
    </div>
  );
}

const NOTES_SHOWN = 2;

/** A creator's uploads; a tap opens the profile feed at that video (spec §2: /{slug}/feed). */
export function ProfileVideos({ slug }: { slug: string }) {
  const feed = `/${encodeURIComponent(slug)}/feed`;
  return (
    <PagedGrid
      firstUrl={userVideosPath(slug)}
      to={() => feed}
      empty={messages.profile.noVideos}
      label="Videos"
      // A visitor's grid: what the viewer does in the feed opened from it does not change it (the owner's
      // grid, with its deletes, and the liked videos load again).
      keep
    />
  );
}

/**
 * The owner's uploads (spec §4, §6): every status as a badge, and a delete button on each tile. A confirmed
 * delete shows 'Deleting' at once; a failure says so and puts the tile back as it was.
 */
export function OwnerVideos({ slug }: { slug: string }) {
  const feed = `/${encodeURIComponent(slug)}/feed`;
  const showToast = useSetAtom(showToastAtom);
  const [statuses, setStatuses] = useState<Readonly<Record<number, VideoStatus>>>({});
  const [asking, setAsking] = useState<Video | null>(null);

  const remove = async (video: Video) => {
    setAsking(null);
    setStatuses((known) => ({ ...known, [video.id]: 'deleting' }));
    try {
      await deleteVideo(video.id);
      showToast(messages.profile.videoDeleted);
    } catch (error) {
      setStatuses(({ [video.id]: _, ...rest }) => rest);
      showToast(
        errorText(error, {
          network: messages.profile.videoDeleteFailed,
          serverMessage: false,
          fallback: messages.profile.videoDeleteFailed,
        }),
        { tone: 'error' },
      );
    }
  };

  return (
    <>
      <PagedGrid
        firstUrl={userVideosPath(slug)}
        to={() => feed}
        empty={messages.profile.noVideos}
        showStatus
        label="Videos"
        statuses={statuses}
        tileAction={(video) =>
          video.status === 'deleting' ? null : (
            <button
              type="button"
              className="video-tile-delete"
              aria-label={`Delete video ${video.title}`}
              onClick={() => setAsking(video)}
            >
              <TrashIcon />
            </button>
          )
        }
      />
      {asking && (
        <ConfirmDialog
          title="Delete video"
          text={messages.profile.confirmDeleteVideo}
          confirmLabel="Delete"
          onConfirm={() => void remove(asking)}
          onCancel={() => setAsking(null)}
        />
      )}
    </>
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
      <LoadFailed compact title="Couldn't load who you follow" error={models.error} onRetry={models.retry} />
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

/**
 * Spec §4 for an owner model or channel who may not upload yet: none or pending get the upload prompt,
 * rejected gets its own sentence; each with the way to the validation screen.
 */
export function VerificationPrompt({ status }: { status: VerificationStatus }) {
  if (status === 'approved') return null;
  const rejected = status === 'rejected';
  const action = rejected ? 'Try again' : status === 'pending' ? 'Check status' : 'Verify now';
  return (
    <div className={`profile-notice${rejected ? ' is-error' : ''}`} role="note">
      <ShieldIcon className="profile-notice-icon" />
      <p className="profile-notice-text">
        {rejected ? messages.upload.verificationRejected : messages.upload.verifyPrompt}
      </p>
      <Link to="/account/settings/validation" className="profile-notice-action">
        {action}
      </Link>
    </div>
  );
}
