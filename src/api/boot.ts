// The first screen's data is asked for by a few lines of script inline in index.html, before any module has
// downloaded (issue 17: the request chain before the first frame or picture): the home feed's first page on
// `/`, the discover answer on `/discover`. That script cannot read IndexedDB synchronously, where the guest id
// and preferences live, so the app leaves it the exact URL to ask for in localStorage: written each time the
// screen loads, read by the next page load. A guess that no longer matches (new preferences, a sign-in) is
// simply not used: apiFetch adopts the boot request only for an identical URL.
import { guestGetUrl } from './http';

/** Read by the inline script in index.html (`shortcams.boot${kind}`): keep the two in step. */
const BOOT_KEYS = { feed: 'shortcams.bootFeed', discover: 'shortcams.bootDiscover' } as const;

export interface BootRequest {
  url: string;
  response: Promise<Response>;
}

declare global {
  interface Window {
    /** Set by index.html's boot script when it started the first screen's request. */
    __shortcamsBoot?: BootRequest;
    /**
     * The home feed's first video, loading in an element of its own (browsers with their own HLS player);
     * null once the feed has asked for it, which tells the boot script it is too late to start one.
     */
    __shortcamsBootVideo?: HTMLVideoElement | null;
  }
}

/** The boot script's request, handed over once: a later load of the screen must go to the network. */
export function takeBootRequest(): BootRequest | undefined {
  const boot = window.__shortcamsBoot;
  window.__shortcamsBoot = undefined;
  return boot;
}

/** What the next page load's boot script should ask for on this screen: `path` as this viewer would send it. */
export async function rememberBootRequest(screen: keyof typeof BOOT_KEYS, path: string): Promise<void> {
  const url = await guestGetUrl(path).catch(() => null);
  try {
    if (url) localStorage.setItem(BOOT_KEYS[screen], url);
    else localStorage.removeItem(BOOT_KEYS[screen]);
  } catch {
    // No storage (private mode): every visit just starts the screen's request from the app, as before.
  }
}

/**
 * The element index.html's boot script set loading the home feed's first video in, for the feed's first
 * slot to take over when it is to play that very `src` (issue 17: the first segment on its way before the
 * app's code). Handed over once; asked for another source, or already failed, it is stopped and dropped, so
 * a guess that did not match downloads no further. On a phone it may already be playing on screen, in the
 * boot script's stage: that goes either way, and the slot must put the element in its place within the same
 * task (a media element out of the document past that is paused).
 */
export function takeBootVideo(src: string | null): HTMLVideoElement | undefined {
  const video = window.__shortcamsBootVideo;
  window.__shortcamsBootVideo = null;
  document.querySelector('.boot-stage')?.remove();
  if (!video) return undefined;
  if (src && video.getAttribute('src') === src && !video.error) return video;
  video.removeAttribute('src');
  video.load();
  return undefined;
}
