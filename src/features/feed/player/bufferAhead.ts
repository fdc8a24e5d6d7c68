// When the video on screen has enough on the device that something else may use the link: the next slot's
// preload and the tunnel buffer wait for it (issue 35: on a slow link, the next slot took half of it and the
// video on screen stalled a third of its first 8 s). Measured by what is buffered, not by a speed estimate:
// a fast link gets there in a moment, a slow one only after the video on screen is safe.

/** Seconds buffered past the playhead that count as safe; or the clip's end, whichever comes first. */
export const SAFE_AHEAD_SECONDS = 10;

interface Ranges {
  length: number;
  start(index: number): number;
  end(index: number): number;
}

/**
 * Seconds buffered past `currentTime` in the range that holds it (a small gap before it is the same range);
 * -Infinity when no range starts by then.
 */
function bufferedAhead(buffered: Ranges, currentTime: number): number {
  let ahead = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < buffered.length; i += 1) {
    if (buffered.start(i) <= currentTime + 0.1) ahead = Math.max(ahead, buffered.end(i) - currentTime);
  }
  return ahead;
}

/** Whether the buffered range around `currentTime` reaches SAFE_AHEAD_SECONDS ahead, or the end of the clip. */
export function bufferedEnough(buffered: Ranges, currentTime: number, duration: number): boolean {
  const goal =
    Number.isFinite(duration) && duration > 0
      ? Math.min(duration - 0.25, currentTime + SAFE_AHEAD_SECONDS)
      : currentTime + SAFE_AHEAD_SECONDS;
  return bufferedAhead(buffered, currentTime) >= goal - currentTime;
}

/**
 * Whether a `waiting` video is starving for media mid-clip: under half a second buffered ahead, and not at
 * its end. At the end a `waiting` is the clip finishing (a looping one seeks back to its start, which is
 * buffered): treating it as starving threw that start away (bench: loops froze 1.3 to 1.9 s on bad 4G).
 */
export function runningDry(buffered: Ranges, currentTime: number, duration: number): boolean {
  if (Number.isFinite(duration) && duration - currentTime < 0.5) return false;
  return bufferedAhead(buffered, currentTime) < 0.5;
}
