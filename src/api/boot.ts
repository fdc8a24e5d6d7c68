// The home feed's first page is asked for by a few lines of script inline in index.html, before any module
// has downloaded (issue 17: the request chain before the first frame). That script cannot read IndexedDB
// synchronously, where the guest id lives, so the app leaves it the exact URL to ask for in localStorage:
// written each time the home feed starts, read by the next page load. A guess that no longer matches (new
// preferences, a sign-in) is simply not used: apiFetch adopts the boot request only for an identical URL.
import { guestGetUrl } from './http';

/** Read by the inline script in index.html: keep the two in step. */
const BOOT_FEED_KEY = 'shortcams.bootFeed';

export interface BootRequest {
  url: string;
  response: Promise<Response>;
}

declare global {
  interface Window {
    /** Set by index.html's boot script when it started the home feed's first page. */
    __shortcamsBootFeed?: BootRequest;
  }
}

/** The boot script's request, handed over once: a later load of the feed must go to the network. */
export function takeBootFeed(): BootRequest | undefined {
  const boot = window.__shortcamsBootFeed;
  window.__shortcamsBootFeed = undefined;
  return boot;
}

/** What the next page load's boot script should ask for: this feed URL as this viewer would send it. */
export async function rememberBootFeed(path: string): Promise<void> {
  const url = await guestGetUrl(path).catch(() => null);
  try {
    if (url) localStorage.setItem(BOOT_FEED_KEY, url);
    else localStorage.removeItem(BOOT_FEED_KEY);
  } catch {
    // No storage (private mode): every visit just starts the feed from the app, as before.
  }
}
