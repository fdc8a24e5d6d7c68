// Fills the tunnel buffer while the viewer watches: one download at a time, only while the video on screen
// has enough buffered ahead (its gate, given by the feed), and never on Save-Data or against the setting.
// A new call to keepAhead replaces the plan; the download under way finishes into the cache either way.
import type { Video } from '../../contract/video';
import { evictions, type KeepSetting, type LinkInfo, mayKeep, TUNNEL, wanted } from './plan';
import { dropKept, keepVideo, listKept, touchKept } from './store';

export interface KeepPlan {
  feed: string;
  videos: readonly Video[];
  current: number;
  setting: KeepSetting;
  /** Whether the video on screen has buffered enough that a download beside it costs it nothing. */
  ready: () => boolean;
  /** Keep the video on screen too (not where the browser's own player is downloading it: see `wanted`). */
  withCurrent: boolean;
}

let plan: KeepPlan | null = null;
let running = false;
let lastShown: number | null = null;
/** Back-off after a failed download (the link went, the server is busy): the loop waits, it does not spin. */
const RETRY_MS = 5_000;
const GATE_POLL_MS = 500;

/** What the browser tells about the connection (Network Information API, where there is one). */
export const link = (): LinkInfo => {
  const connection = (navigator as Navigator & { connection?: LinkInfo }).connection;
  return { type: connection?.type, saveData: connection?.saveData };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once the plan in force lets a download start now; rejects if the plan changed meanwhile. */
async function gate(mine: KeepPlan): Promise<void> {
  for (;;) {
    if (plan !== mine) throw new Error('plan changed');
    if (navigator.onLine && mayKeep(mine.setting, link()) && mine.ready()) return;
    await sleep(GATE_POLL_MS);
  }
}

async function run(): Promise<void> {
  running = true;
  try {
    while (plan) {
      const mine = plan;
      if (!mayKeep(mine.setting, link())) return;
      const want = wanted(mine.videos, mine.current, { withCurrent: mine.withCurrent });
      const kept = await listKept();
      const protect = new Set(want.map((v) => v.id));
      await dropKept(evictions(kept, TUNNEL.budgetBytes, protect), kept);
      const keptIds = new Set(kept.map((e) => e.id));
      const next = want.find((v) => !keptIds.has(v.id));
      if (!next) {
        // Nothing left to do for this plan: wait for the next one.
        if (plan === mine) return;
        continue;
      }
      const controller = new AbortController();
      try {
        await keepVideo(next, mine.feed, mine.videos.indexOf(next), {
          signal: controller.signal,
          beforeEach: () => gate(mine),
        });
      } catch {
        if (plan !== mine) continue;
        await sleep(RETRY_MS);
      }
    }
  } finally {
    running = false;
  }
}

/**
 * The feed's current state: keep the video on screen and the next ones. Also records that the one shown
 * before was watched, so eviction lets it go before the unwatched ones.
 */
export function keepAhead(next: KeepPlan): void {
  askToPersist();
  const shown = next.videos[next.current]?.id ?? null;
  if (shown !== lastShown) {
    if (lastShown !== null) void touchKept(lastShown, true).catch(() => undefined);
    if (shown !== null) void touchKept(shown, false).catch(() => undefined);
    lastShown = shown;
  }
  plan = next;
  if (!running) void run().catch(() => undefined);
}

let persistAsked = false;
/**
 * Kept videos are worth keeping through storage pressure once the app is installed (issue 35): the browser
 * then grants persistence without a prompt (Chromium) or remembers the installed app's data (Safari). Asked
 * once per page; a browser tab is not asked, as Firefox would show the viewer a permission prompt.
 */
function askToPersist() {
  if (persistAsked || !window.matchMedia?.('(display-mode: standalone)').matches) return;
  persistAsked = true;
  void navigator.storage?.persist?.().catch(() => false);
}

/** The feed went away: nothing more is fetched for it. */
export function stopKeeping(): void {
  plan = null;
}
