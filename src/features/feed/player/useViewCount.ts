import { useAtom, useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { trackVideoView } from '../../../api/tracking';
import { useEffectEvent } from '../../../state/effectEvent';
import { onlineAtom } from '../../../state/network';
import { viewedVideosAtom } from '../feedAtoms';

/**
 * Offline a video cannot start, yet the viewer saw it (poster, title, creator): after this long on screen
 * it counts as viewed, queued in the outbox until the network is back.
 */
export const OFFLINE_VIEW_MS = 1000;

/**
 * Counts a view once per video per session (README "Counting"): when the video on screen starts playing, or
 * offline after OFFLINE_VIEW_MS on screen. Returns the call for the video's `playing` event.
 */
export function useViewCount(videoId: number | undefined, active: boolean, isAd: boolean) {
  const [viewed, setViewed] = useAtom(viewedVideosAtom);
  const online = useAtomValue(onlineAtom);
  const markViewed = () => {
    if (!active || isAd || videoId === undefined || viewed.has(videoId)) return;
    setViewed(new Set(viewed).add(videoId));
    void trackVideoView(videoId);
  };
  const markSeenOffline = useEffectEvent(markViewed);
  useEffect(() => {
    if (!active || online || videoId === undefined) return;
    const timer = window.setTimeout(markSeenOffline, OFFLINE_VIEW_MS);
    return () => window.clearTimeout(timer);
  }, [active, online, videoId]);
  return markViewed;
}
