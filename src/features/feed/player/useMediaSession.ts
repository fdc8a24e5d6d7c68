import { type RefObject, useEffect } from 'react';
import type { Video } from '../../../contract';
import { useEffectEvent } from '../../../state/effectEvent';
import { viewerPause, viewerPlay } from './usePlayback';

const supported = () => typeof navigator !== 'undefined' && 'mediaSession' in navigator;

/** The actions the feed answers; each is cleared again when the feed goes. */
const ACTIONS = ['play', 'pause', 'nexttrack', 'previoustrack'] as const;

function setHandler(action: MediaSessionAction, handler: MediaSessionActionHandler | null) {
  try {
    navigator.mediaSession.setActionHandler(action, handler);
  } catch {
    // A browser that knows the Media Session but not this action: the others still work.
  }
}

/**
 * The feed in the system's media controls (lock screen, notification, headset and keyboard media keys): the
 * video on screen's title, creator and poster, next and previous as a swipe would move (`go`), play and pause
 * on the video on screen. Nothing where the browser has no Media Session.
 */
export function useMediaSession({
  video,
  go,
  stageRef,
}: {
  /** The video on screen. */
  video: Video | undefined;
  /** The feed's own move, with its rules (the ends of the list, an ad that must be skipped first). */
  go: (direction: 1 | -1) => void;
  /** The feed's stage, which holds the slot on screen and its <video>. */
  stageRef: RefObject<HTMLElement | null>;
}) {
  const title = video?.title;
  const creator = video?.user.name;
  const poster = video?.thumbnailUrl ?? video?.tileUrl ?? null;

  useEffect(() => {
    if (!supported() || typeof MediaMetadata === 'undefined' || title === undefined) return;
    navigator.mediaSession.metadata = new MediaMetadata({
      title,
      artist: creator,
      artwork: poster ? [{ src: new URL(poster, window.location.href).href }] : [],
    });
  }, [title, creator, poster]);

  const onScreen = useEffectEvent(() =>
    stageRef.current?.querySelector<HTMLVideoElement>('article[aria-hidden="false"] video'),
  );
  const move = useEffectEvent(go);

  useEffect(() => {
    if (!supported()) return;
    setHandler('play', () => {
      // Refused (no user gesture on this platform): the slot shows its play hint, as after any refusal.
      const video = onScreen();
      if (video) viewerPlay(video).catch(() => undefined);
    });
    setHandler('pause', () => {
      const video = onScreen();
      if (video) viewerPause(video);
    });
    setHandler('nexttrack', () => move(1));
    setHandler('previoustrack', () => move(-1));
    return () => {
      for (const action of ACTIONS) setHandler(action, null);
      navigator.mediaSession.metadata = null;
    };
  }, []);
}
