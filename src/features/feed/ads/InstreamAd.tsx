import { type RefObject, useEffect, useState } from 'react';
import { useEffectEvent } from '../../../state/effectEvent';
import type { AdPlacement } from '../sidebar/sidebar';
import { AdLink } from './AdLink';
import { isHouseLink } from './adRules';

/** Spec §9: an instream ad can be skipped after 5 s. */
export const INSTREAM_SKIP_AFTER_S = 5;
/** An ad that has not started within this long is given up: a slow ad network must not hold the feed. */
const START_TIMEOUT_MS = 4000;

/**
 * The controls of a video ad that plays in the slot of the video it comes before: the slot's own <video>
 * element plays it (the feed keeps its three elements and three hls.js instances), this overlay says it is an
 * ad and ends it on its end, on any error, when it does not start in time, or on Skip after 5 s.
 */
export function InstreamAd({
  placement,
  videoRef,
  onDone,
}: {
  placement: AdPlacement;
  videoRef: RefObject<HTMLVideoElement | null>;
  onDone: () => void;
}) {
  const [elapsed, setElapsed] = useState(0);
  const done = useEffectEvent(onDone);

  useEffect(() => {
    const video = videoRef.current;
    if (!video || !placement.src) {
      done();
      return;
    }
    const onTime = () => setElapsed(video.currentTime);
    const end = () => done();
    video.addEventListener('timeupdate', onTime);
    video.addEventListener('ended', end);
    video.addEventListener('error', end);
    // Judged by the element's clock, not by a 'playing' event: the slot may start the ad before this overlay's
    // code has loaded (an ad already playing must not be cut at 4 s), and a slot that buffered it ahead waits
    // at its first frame, not at 0 (usePlayback's holdAtFirstFrame).
    const from = video.currentTime;
    const giveUp = setTimeout(() => {
      if (video.currentTime <= from) done();
    }, START_TIMEOUT_MS);
    return () => {
      clearTimeout(giveUp);
      video.removeEventListener('timeupdate', onTime);
      video.removeEventListener('ended', end);
      video.removeEventListener('error', end);
    };
  }, [placement.src, videoRef]);

  const left = Math.max(0, Math.ceil(INSTREAM_SKIP_AFTER_S - elapsed));
  return (
    <div className="instream" data-slot-id={placement.slotId}>
      <span className="instream-label">Ad</span>
      {placement.href && (
        <AdLink className="instream-link" href={placement.href}>
          {isHouseLink(placement.href) ? 'Learn more' : 'Visit advertiser'}
        </AdLink>
      )}
      <button type="button" className="instream-skip btn" disabled={left > 0} onClick={onDone}>
        {left > 0 ? `Skip in ${left}` : 'Skip'}
      </button>
    </div>
  );
}
