import { type CSSProperties, type RefObject, useEffect, useRef, useState } from 'react';
import { SWIPE } from './window';

/** Thin progress line that doubles as a scrubber; seeks are debounced (spec §9: 70 ms) while dragging. */
export function SeekBar({
  videoRef,
  active,
}: {
  videoRef: RefObject<HTMLVideoElement | null>;
  active: boolean;
}) {
  const [progress, setProgress] = useState({ time: 0, duration: 0 });
  const seekTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const scrubbing = useRef(false);

  useEffect(() => {
    const element = videoRef.current;
    if (!element || !active) return;
    const update = () => {
      if (!scrubbing.current) setProgress({ time: element.currentTime, duration: element.duration || 0 });
    };
    element.addEventListener('timeupdate', update);
    element.addEventListener('durationchange', update);
    return () => {
      element.removeEventListener('timeupdate', update);
      element.removeEventListener('durationchange', update);
      clearTimeout(seekTimer.current);
    };
  }, [videoRef, active]);

  if (!active || progress.duration <= 0) return <div className="feed-seek-placeholder" />;
  return (
    <input
      type="range"
      className="feed-seek"
      aria-label="Seek"
      min={0}
      max={progress.duration}
      step={0.1}
      value={progress.time}
      style={{ '--progress': `${(progress.time / progress.duration) * 100}%` } as CSSProperties}
      onPointerDown={() => {
        scrubbing.current = true;
      }}
      onPointerUp={() => {
        scrubbing.current = false;
      }}
      onChange={(event) => {
        const time = Number(event.target.value);
        setProgress((p) => ({ ...p, time }));
        clearTimeout(seekTimer.current);
        seekTimer.current = setTimeout(() => {
          const element = videoRef.current;
          if (element) element.currentTime = time;
        }, SWIPE.seekDebounceMs);
      }}
    />
  );
}
