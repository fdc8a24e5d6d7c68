import { useEffect, useState } from 'react';
import { afterFirstVideo } from '../../../state/firstVideo';
import type { AdPlacement } from '../sidebar/sidebar';

let placements: Promise<AdPlacement[]> | undefined;

/**
 * The operator's ad placements, from /ads.json so they change without a rebuild, asked for once the first
 * video is ready. Anything wrong with the file or the network means no ads: ads must never stand between a
 * viewer and the feed.
 */
export function loadAdPlacements(): Promise<AdPlacement[]> {
  // Only once the first video shows a frame (or 10 s on, for a feed whose video never does): on a slow
  // network it must not compete with that video (issue 17).
  placements ??= afterFirstVideo()
    .then(() => fetch('/ads.json', { credentials: 'omit' }))
    .then((res) => (res.ok ? res.json() : []))
    .then((json: unknown) => (Array.isArray(json) ? (json as AdPlacement[]).filter(isPlacement) : []))
    .catch(() => []);
  return placements;
}

function isPlacement(p: AdPlacement): boolean {
  return typeof p?.name === 'string' && typeof p.slotId === 'string' && typeof p.type === 'string';
}

export function useAdPlacements(wide: boolean): AdPlacement[] {
  const [all, setAll] = useState<AdPlacement[]>([]);
  useEffect(() => {
    let live = true;
    void loadAdPlacements().then((list) => {
      if (live) setAll(list);
    });
    return () => {
      live = false;
    };
  }, []);
  return wide ? all.filter((p) => !p.hideWide) : all;
}
