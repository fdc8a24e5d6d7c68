import { useCallback, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../api/http';
import { useRequest } from '../../api/useRequest';
import { fetchHomeFeed } from '../../api/videos';
import type { Video } from '../../contract';
import { Avatar } from '../../ui/Avatar';
import { formatCount } from '../../ui/format';
import { EyeIcon, HeartIcon, MutedIcon, PlayIcon, VolumeIcon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { useVideoSource } from './useVideoSource';
import './feed.css';

const TAGS_SHOWN = 5;

/**
 * Stand-in home feed: plays the first video of GET /v1/videos. The three-slot swipe player replaces the body
 * of this screen later; the overlay and the source handling carry over.
 */
export function HomeScreen() {
  const feed = useRequest('home', (signal) => fetchHomeFeed({}, signal));

  if (feed.status === 'loading') {
    return (
      <div className="feed-stage">
        <Spinner fill />
      </div>
    );
  }
  if (feed.status === 'error') {
    const offline = feed.error instanceof ApiError && feed.error.status === 0;
    return (
      <div className="feed-stage feed-message" role="alert">
        <h1 className="feed-message-title">Couldn't load videos</h1>
        <p className="feed-message-text">
          {offline
            ? 'You seem to be offline. Check your connection and try again.'
            : 'Please try again in a moment.'}
        </p>
        <button type="button" className="btn btn-primary" onClick={feed.retry}>
          Retry
        </button>
      </div>
    );
  }
  const first = feed.data.data[0];
  if (!first) {
    return (
      <div className="feed-stage feed-message">
        <h1 className="feed-message-title">No videos yet</h1>
        <p className="feed-message-text">New clips show up here as soon as creators post them.</p>
      </div>
    );
  }
  return <FeedVideo video={first} />;
}

function FeedVideo({ video }: { video: Video }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [muted, setMuted] = useState(true);
  const [paused, setPaused] = useState(false);
  const [failed, setFailed] = useState(false);
  const fail = useCallback(() => setFailed(true), []);
  useVideoSource(ref, video.playlistUrl, fail);

  const toggleMute = () => {
    const element = ref.current;
    if (!element) return;
    // Set on the element inside the tap handler itself: browsers only allow sound from a user gesture.
    element.muted = !muted;
    setMuted(!muted);
    if (element.paused) void element.play().catch(() => undefined);
  };

  const togglePlay = () => {
    const element = ref.current;
    if (!element) return;
    if (element.paused) void element.play().catch(() => undefined);
    else element.pause();
  };

  return (
    <div className="feed-stage">
      <video
        ref={ref}
        className="feed-video"
        poster={video.thumbnailUrl ?? undefined}
        muted={muted}
        autoPlay
        playsInline
        loop
        preload="auto"
        onPlay={() => setPaused(false)}
        onPause={() => setPaused(true)}
        onError={fail}
      />
      <div className="feed-scrim" aria-hidden="true" />

      <button type="button" className="feed-tap" onClick={togglePlay} aria-label={paused ? 'Play' : 'Pause'}>
        {paused && !failed && (
          <span className="feed-play-hint">
            <PlayIcon />
          </span>
        )}
      </button>

      {failed && <p className="feed-failed">This video can't be played right now.</p>}

      <div className="feed-info">
        <Link to={`/${video.user.slug}`} className="feed-author">
          <Avatar src={video.user.avatar} name={video.user.name} size={40} live={video.user.isLive === 1} />
          <span className="feed-author-name">{video.user.name}</span>
          {video.user.isLive === 1 && <span className="live-badge">LIVE</span>}
        </Link>
        <p className="feed-title">{video.title}</p>
        {video.tags.length > 0 && (
          <ul className="feed-tags">
            {video.tags.slice(0, TAGS_SHOWN).map((tag) => (
              <li key={tag.id}>
                <Link to={`/tag/${tag.id}`} className="feed-tag">
                  #{tag.name}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>

      <div className="feed-actions">
        <div className="feed-action" role="img" aria-label={`${video.likeCount} likes`}>
          <span className={`feed-action-icon${video.isLiked ? ' is-liked' : ''}`}>
            <HeartIcon />
          </span>
          <span className="feed-action-count">{formatCount(video.likeCount)}</span>
        </div>
        <div className="feed-action" role="img" aria-label={`${video.viewCount} views`}>
          <span className="feed-action-icon">
            <EyeIcon />
          </span>
          <span className="feed-action-count">{formatCount(video.viewCount)}</span>
        </div>
        <button
          type="button"
          className="feed-action"
          onClick={toggleMute}
          aria-label={muted ? 'Unmute' : 'Mute'}
          aria-pressed={!muted}
        >
          <span className="feed-action-icon">{muted ? <MutedIcon /> : <VolumeIcon />}</span>
        </button>
      </div>
    </div>
  );
}
