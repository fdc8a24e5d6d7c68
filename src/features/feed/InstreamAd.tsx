import { useEffect, useRef, useState } from 'react';
import type { AdPlacement } from './sidebar';
import { useSlotSource } from './useSlotSource';

/** Spec §9: an instream ad can be skipped after 5 s. */
export const INSTREAM_SKIP_AFTER_S = 5;
/** An ad that has not started within this long is given up: a slow ad network must not hold the feed. */
const START_TIMEOUT_MS = 4000;

/**
 * A video ad played over the feed before a video. It ends itself on its end, on any error, or when it does
 * not start in time; the viewer may skip it after 5 s.
 */
export function InstreamAd({ placement, onDone }: { placement: AdPlacement; onDone: () => void }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [elapsed, setElapsed] = useState(0);
  const started = useRef(false);
  useSlotSource(ref, placement.src ?? null, onDone);

  useEffect(() => {
    const video = ref.current;
    if (!video || !placement.src) {
      onDone();
      return;
    }
    void video.play().catch(() => undefined);
    const giveUp = setTimeout(() => {
      if (!started.current) onDone();
    }, START_TIMEOUT_MS);
    return () => clearTimeout(giveUp);
  }, [placement.src, onDone]);

  const left = Math.max(0, Math.ceil(INSTREAM_SKIP_AFTER_S - elapsed));
  return (
    <div className="instream" data-slot-id={placement.slotId}>
      <video
        ref={ref}
        className="feed-video"
        muted
        playsInline
        onPlaying={() => {
          started.current = true;
        }}
        onTimeUpdate={(e) => setElapsed(e.currentTarget.currentTime)}
        onEnded={onDone}
        onError={onDone}
      />
      <span className="instream-label">Ad</span>
      {placement.href && (
        <a className="instream-link" href={placement.href} target="_blank" rel="noopener sponsored">
          Visit advertiser
        </a>
      )}
      <button type="button" className="instream-skip btn" disabled={left > 0} onClick={onDone}>
        {left > 0 ? `Skip in ${left}` : 'Skip'}
      </button>
    </div>
  );
}
