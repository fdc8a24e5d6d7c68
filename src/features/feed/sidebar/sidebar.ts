/** Spec §9: the left sidebar loads 20 per page and stops once a page brings fewer than 10. */
export const SIDEBAR_PAGE_SIZE = 20;
export const SIDEBAR_STOP_BELOW = 10;

/** Spec §9: sidebar columns by its width, breakpoints 250, 350 and 600 px. */
export function sidebarColumns(width: number): number {
  if (width < 250) return 1;
  if (width < 350) return 2;
  if (width < 600) return 3;
  return 4;
}

export type AdType = 'banner' | 'im' | 'pop' | 'native' | 'footer' | 'instream';

/** One ad placement of the operator's configuration (public/ads.json). */
export interface AdPlacement {
  name: string;
  slotId: string;
  type: AdType;
  /** Hidden on screens 1400 px and wider (spec §1). */
  hideWide?: boolean;
  /**
   * Banner, native, footer, im: the creative's image and click-through; instream: the video and
   * click-through; pop: the page it opens (href only).
   */
  src?: string;
  href?: string;
  /** im: the message beside the image. */
  text?: string;
  /** Sidebar placements: an ad after every this many thumbnails. */
  every?: number;
}

/** Mixes ad tiles into a list of thumbnails: one after every `every` items, never two in a row. */
export function mixAds<T>(
  items: T[],
  ads: AdPlacement[],
  every: number,
): ({ item: T } | { ad: AdPlacement })[] {
  const out: ({ item: T } | { ad: AdPlacement })[] = [];
  let next = 0;
  items.forEach((item, i) => {
    out.push({ item });
    const ad = ads[next % Math.max(ads.length, 1)];
    if (ad && every > 0 && (i + 1) % every === 0) {
      out.push({ ad });
      next++;
    }
  });
  return out;
}
