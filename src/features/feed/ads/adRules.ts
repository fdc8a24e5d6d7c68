/** A pop placement opens at most once a day on a device (spec §1 ad placements; the interval is ours). */
export const POP_INTERVAL_MS = 24 * 60 * 60 * 1000;

/** The in-page message waits this long on a feed screen: the viewer sees the video first. */
export const IM_DELAY_MS = 4000;

/** A path of this app (`/upload`), as house ads link to; `//host` is another site. */
export function isHouseLink(href: string): boolean {
  return href.startsWith('/') && !href.startsWith('//') && !href.startsWith('/\\');
}

/**
 * Whether this tap opens the pop placement: only the session's first tap, and only if the last pop is a day
 * old. A time that is not a number, or lies in the future (a clock set back, a bad value), does not block
 * pops forever.
 */
export function popDue(lastShownAt: unknown, now: number, tappedThisSession: boolean): boolean {
  if (tappedThisSession) return false;
  if (typeof lastShownAt !== 'number' || !Number.isFinite(lastShownAt) || lastShownAt > now) return true;
  return now - lastShownAt >= POP_INTERVAL_MS;
}

// Per-tab session flags (sessionStorage): gone with the tab, as a "session" should be. Storage may be off
// (some private modes): then each format behaves as if nothing had happened yet, which is no worse.
const SESSION_PREFIX = 'shortcams.ads.';

export function sessionFlag(name: string): boolean {
  try {
    return sessionStorage.getItem(SESSION_PREFIX + name) === '1';
  } catch {
    return false;
  }
}

export function setSessionFlag(name: string) {
  try {
    sessionStorage.setItem(SESSION_PREFIX + name, '1');
  } catch {
    // Nothing to remember it in: the format may show again on the next feed screen.
  }
}
