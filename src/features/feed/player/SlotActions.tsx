import { useAtom, useSetAtom } from 'jotai';
import type { RefObject } from 'react';
import { trackVideoLike } from '../../../api/tracking';
import type { Video } from '../../../contract';
import { isMutedAtom, likedVideosAtom } from '../../../state/preferences';
import { formatCount } from '../../../ui/format';
import {
  EyeIcon,
  HeartIcon,
  MoreIcon,
  MutedIcon,
  SlidersIcon,
  SmileIcon,
  VolumeIcon,
} from '../../../ui/icons';
import { patchVideoAtom } from '../feedAtoms';

export type SlotAction = 'more' | 'rate' | 'settings';

/** Like with the count changing at once; the device's list of likes covers those still in the outbox. */
function useLike(video: Video) {
  const [likedVideos, setLikedVideos] = useAtom(likedVideosAtom);
  const patchVideo = useSetAtom(patchVideoAtom);
  // A like still in the outbox (offline) is not in the server's answer yet: the device's list fills the gap.
  const pendingLike = !video.isLiked && likedVideos.includes(video.id);
  const isLiked = video.isLiked || pendingLike;
  const likeCount = video.likeCount + (pendingLike ? 1 : 0);
  const toggleLike = () => {
    const next = !isLiked;
    patchVideo(video.id, { isLiked: next, likeCount: Math.max(0, likeCount + (next ? 1 : -1)) });
    setLikedVideos(
      next
        ? [...likedVideos.filter((id) => id !== video.id), video.id]
        : likedVideos.filter((id) => id !== video.id),
    );
    void trackVideoLike(video.id, next);
  };
  return { isLiked, likeCount, toggleLike };
}

/** The column of controls on the right of a video: like, views, rate, more, mute, settings. */
export function SlotActions({
  video,
  videoRef,
  onAction,
}: {
  video: Video;
  videoRef: RefObject<HTMLVideoElement | null>;
  onAction: (kind: SlotAction, video: Video) => void;
}) {
  const [muted, setMuted] = useAtom(isMutedAtom);
  const { isLiked, likeCount, toggleLike } = useLike(video);
  const toggleMute = () => {
    const element = videoRef.current;
    // Set on the element inside the tap handler itself: browsers only allow sound from a user gesture.
    if (element) element.muted = !muted;
    setMuted(!muted);
  };
  return (
    <div className="feed-actions">
      <button
        type="button"
        className="feed-action"
        onClick={toggleLike}
        data-shortcut="like"
        aria-pressed={isLiked}
      >
        {/* Named by its words and its visible count together: a voice command says what it sees. */}
        <span className="visually-hidden">{isLiked ? 'Unlike' : 'Like'}</span>
        <span className={`feed-action-icon${isLiked ? ' is-liked' : ''}`}>
          <HeartIcon />
        </span>
        <span className="feed-action-count">{formatCount(likeCount)}</span>
      </button>
      <div className="feed-action" role="img" aria-label={`${video.viewCount} views`}>
        <span className="feed-action-icon">
          <EyeIcon />
        </span>
        <span className="feed-action-count">{formatCount(video.viewCount)}</span>
      </div>
      <button
        type="button"
        className="feed-action"
        onClick={() => onAction('rate', video)}
        aria-label={video.isRated ? 'Video Rated' : 'Rate video'}
      >
        <span className={`feed-action-icon${video.isRated ? ' is-rated' : ''}`}>
          <SmileIcon />
        </span>
      </button>
      <button
        type="button"
        className="feed-action"
        onClick={() => onAction('more', video)}
        aria-label="More actions"
      >
        <span className="feed-action-icon">
          <MoreIcon />
        </span>
      </button>
      <button
        type="button"
        className="feed-action"
        onClick={toggleMute}
        data-shortcut="mute"
        aria-label={muted ? 'Unmute' : 'Mute'}
        aria-pressed={!muted}
      >
        <span className="feed-action-icon">{muted ? <MutedIcon /> : <VolumeIcon />}</span>
      </button>
      <button
        type="button"
        className="feed-action"
        onClick={() => onAction('settings', video)}
        aria-label="Settings"
      >
        <span className="feed-action-icon">
          <SlidersIcon />
        </span>
      </button>
    </div>
  );
}
