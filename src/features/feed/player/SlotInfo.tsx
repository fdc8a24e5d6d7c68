import { type RefObject, useState } from 'react';
import { trackEvent, trackLinkClick } from '../../../api/tracking';
import type { Video } from '../../../contract';
import { type PanelState, usePanelState } from '../../../state/panel';
import { Avatar } from '../../../ui/Avatar';
import { Link } from '../../../ui/Link';
import { SeekBar } from './SeekBar';
import './slot-polish.css';

const TAGS_SHOWN = 5;

/** The bottom-left of a video: its creator, live chip, title, hashtag chips and the seek line. */
export function SlotInfo({
  video,
  videoRef,
  active,
}: {
  video: Video;
  videoRef: RefObject<HTMLVideoElement | null>;
  active: boolean;
}) {
  const panelState = usePanelState();
  const [tagsOpenFor, setTagsOpenFor] = useState<number | null>(null);
  const live = video.user.isLive === 1;
  return (
    <div className="feed-info">
      <Link to={`/${video.user.slug}`} state={panelState} className="feed-author">
        <Avatar src={video.user.avatar} name={video.user.name} size={40} live={live} />
        <span className="feed-author-name">{video.user.name}</span>
        {live && <span className="live-badge">LIVE</span>}
      </Link>
      {live && <LiveChip user={video.user} panelState={panelState} />}
      <p className="feed-title">{video.title}</p>
      {video.tags.length > 0 && (
        <ul className="feed-tags">
          {video.tags.slice(0, tagsOpenFor === video.id ? undefined : TAGS_SHOWN).map((tag) => (
            <li key={tag.id}>
              <Link to={`/tag/${tag.id}`} className="feed-tag">
                #{tag.name}
              </Link>
            </li>
          ))}
          {video.tags.length > TAGS_SHOWN && tagsOpenFor !== video.id && (
            <li>
              <button
                type="button"
                className="feed-tag"
                aria-label={`Show all ${video.tags.length} tags`}
                onClick={() => setTagsOpenFor(video.id)}
              >
                ⋯
              </button>
            </li>
          )}
        </ul>
      )}
      <SeekBar videoRef={videoRef} active={active} />
    </div>
  );
}

/**
 * The live-link chip of a creator on air: their live link (their room) in a new tab, counted as a link
 * click; a creator live without such a link gets their profile instead.
 */
function LiveChip({ user, panelState }: { user: Video['user']; panelState: PanelState }) {
  const label = (
    <>
      <span className="live-dot" aria-hidden="true" />
      <span className="feed-live-chip-text">Live now: watch {user.name}</span>
    </>
  );
  const link = user.liveLink;
  if (!link)
    return (
      <Link to={`/${user.slug}`} state={panelState} className="feed-live-chip">
        {label}
      </Link>
    );
  return (
    <a
      href={link.url}
      target="_blank"
      rel="noopener nofollow"
      className="feed-live-chip"
      onClick={() => {
        void trackLinkClick(link.id, 'feed', true);
        // Spec §9 event 1, "bottom cams": the cams opened from the bottom of the video.
        void trackEvent(1);
      }}
    >
      {label}
    </a>
  );
}
