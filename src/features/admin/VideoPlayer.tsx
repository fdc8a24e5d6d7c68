import type Hls from 'hls.js';
import { useEffect, useId, useRef, useState } from 'react';
import { PlayIcon } from '../../ui/icons';
import './player.css';

const HLS_MIME = 'application/vnd.apple.mpegurl';

/**
 * A video as its viewers would get it, for judging: the poster first, and the stream only once the operator
 * asks for it (a queue of twenty posters must not download twenty videos, nor hls.js before one plays).
 * Safari plays HLS itself; elsewhere hls.js, imported at the first Play. Quality picks one rendition's own
 * playlist, so the operator sees exactly what a phone on a slow network gets; the time carries over.
 */
export function VideoPlayer({
  playlistUrl,
  renditions = [],
  poster,
  title,
}: {
  playlistUrl: string | null;
  renditions?: readonly { height: number; url: string }[];
  poster: string | null;
  title: string;
}) {
  const video = useRef<HTMLVideoElement>(null);
  const qualityId = useId();
  const [quality, setQuality] = useState('auto');
  const [started, setStarted] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [failure, setFailure] = useState<string | null>(null);
  // Most uploads are upright phone videos: the frame is drawn upright until the poster says otherwise.
  const [landscape, setLandscape] = useState(false);
  // Where the last source was left, for the next one (a change of quality) to go on from there.
  const position = useRef({ time: 0, paused: false });
  const src =
    quality === 'auto'
      ? playlistUrl
      : (renditions.find((r) => String(r.height) === quality)?.url ?? playlistUrl);

  useEffect(() => {
    if (!poster) return;
    const image = new Image();
    let active = true;
    image.onload = () => active && setLandscape(image.naturalWidth > image.naturalHeight);
    image.src = poster;
    return () => {
      active = false;
      image.onload = null;
    };
  }, [poster]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry.
  useEffect(() => {
    const element = video.current;
    if (!started || !src || !element) return;
    setFailure(null);
    const { time, paused } = position.current;
    let hls: Hls | undefined;
    let cancelled = false;
    const resume = () => {
      if (time > 0) element.currentTime = time;
    };
    if (element.canPlayType(HLS_MIME) !== '') {
      element.addEventListener('loadedmetadata', resume, { once: true });
      element.src = src;
      // With preload="none" nothing loads until play() asks for it.
      if (!paused) void element.play().catch(() => undefined);
    } else {
      import('hls.js').then(
        ({ default: HlsPlayer }) => {
          if (cancelled) return;
          if (!HlsPlayer.isSupported()) {
            setFailure('This browser cannot play the video.');
            return;
          }
          hls = new HlsPlayer({ startPosition: time > 0 ? time : -1 });
          hls.on(HlsPlayer.Events.ERROR, (_event, data) => {
            if (data.fatal) setFailure('The video could not be played.');
          });
          hls.on(HlsPlayer.Events.MANIFEST_PARSED, () => {
            if (!paused) void element.play().catch(() => undefined);
          });
          hls.loadSource(src);
          hls.attachMedia(element);
        },
        () => {
          if (!cancelled) setFailure('The player did not load. Check the connection and try again.');
        },
      );
    }
    return () => {
      cancelled = true;
      position.current = { time: element.currentTime, paused: element.paused };
      element.removeEventListener('loadedmetadata', resume);
      hls?.destroy();
      element.removeAttribute('src');
      // Lets go of the connection and the decoder the old source still holds.
      element.load();
    };
  }, [started, src, attempt]);

  if (!playlistUrl)
    return (
      <div className={`admin-player-wrap${landscape ? ' is-landscape' : ''}`}>
        <div className="admin-player is-empty">
          {poster && <img className="admin-player-poster" src={poster} alt="" />}
          <p className="admin-player-note">No playable video yet.</p>
        </div>
      </div>
    );

  return (
    <div className={`admin-player-wrap${landscape ? ' is-landscape' : ''}`}>
      <div className="admin-player">
        {/* biome-ignore lint/a11y/useMediaCaption: uploads carry no captions; the operator judges the upload as sent. */}
        <video
          ref={video}
          className="admin-player-video"
          poster={poster ?? undefined}
          controls={started}
          playsInline
          preload="none"
          aria-label={`Video: ${title}`}
          onLoadedMetadata={(event) => {
            const { videoWidth, videoHeight } = event.currentTarget;
            if (videoWidth && videoHeight) setLandscape(videoWidth > videoHeight);
          }}
        />
        {!started && (
          <button type="button" className="admin-player-start" onClick={() => setStarted(true)}>
            <span className="admin-player-start-icon" aria-hidden="true">
              <PlayIcon />
            </span>
            <span>Play video</span>
          </button>
        )}
        {failure && (
          <div className="admin-player-failure" role="alert">
            <p>{failure}</p>
            <button type="button" className="btn btn-ghost" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </button>
          </div>
        )}
      </div>
      {renditions.length > 0 && (
        <div className="admin-player-bar">
          <label htmlFor={qualityId}>Quality</label>
          <select
            id={qualityId}
            className="admin-select"
            value={quality}
            onChange={(event) => setQuality(event.target.value)}
          >
            <option value="auto">Auto</option>
            {renditions.map((r) => (
              <option key={r.height} value={String(r.height)}>
                {r.height}p
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}
