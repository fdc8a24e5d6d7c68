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

/**
 * The page's own formats among `ads`, each the first of its type with a creative: what AdFormats draws. Here,
 * not in AdFormats, so the feed knows whether to load that lazy module at all.
 */
export function pageAdFormats(ads: AdPlacement[]) {
  const footer = ads.find((a) => a.type === 'footer' && a.src);
  const message = ads.find((a) => a.type === 'im' && a.src);
  const pop = ads.find((a) => a.type === 'pop' && a.href);
  return footer || message || pop ? { footer, message, pop } : undefined;
}

export type PageAdFormats = NonNullable<ReturnType<typeof pageAdFormats>>;

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
