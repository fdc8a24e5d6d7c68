import { useCallback, useState } from 'react';
import type { AdPlacement } from '../sidebar/sidebar';

/**
 * Instream ad before every n-th video (placement.every, default 5), once per video per visit. It plays in
 * that video's slot, so the slot below buffers the ad ahead as it would the video.
 */
export function useInstreamAds(ads: AdPlacement[], current: number) {
  const instream = ads.find((a) => a.type === 'instream');
  const [adsDone, setAdsDone] = useState<ReadonlySet<number>>(() => new Set());
  const adAt = (i: number | null) =>
    instream && i !== null && i > 0 && i % (instream.every ?? 5) === 0 && !adsDone.has(i)
      ? instream
      : undefined;
  const endAd = useCallback((i: number) => setAdsDone((done) => new Set(done).add(i)), []);
  return { adAt, adPlaying: adAt(current) !== undefined, endAd };
}
