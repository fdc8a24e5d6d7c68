// A quick look at the link, for the feed: `navigator.onLine` stays true in a tunnel (every packet lost) and
// a request there hangs for minutes rather than failing. The feed asks before it starts a video: an answer
// within PROBE_TIMEOUT_MS means the network may be used; none means kept videos play from the device.
import { linkCheckAtom } from '../state/network';
import { appStore } from '../state/store';
import { noteRequestOutcome, serverAnswers, whenBackOnline } from './reconnect';

/**
 * A healthy link answers the tiny health check in a round trip or two, even on 3G (300 ms); a busy phone or
 * server gets some slack, as a wrong "down" makes the next videos wait for nothing.
 */
const PROBE_TIMEOUT_MS = 3_000;
/** Swipes in a row share one look. */
const FRESH_MS = 3_000;

let probing: Promise<boolean> | null = null;
let lastAt = 0;
let lastOk = true;
let waiting: (() => void) | null = null;
/** Unanswered looks in a row: one alone may be a busy phone or server, two mean the link is down. */
let misses = 0;
const MISSES_FOR_DOWN = 2;
/**
 * The video on screen ran dry waiting on the network: with that evidence one unanswered look is enough (in a
 * tunnel's first seconds a second look cost the viewer 3 s more of a frozen picture, bench: network).
 */
let starving = false;

function settle(ok: boolean) {
  lastOk = ok;
  lastAt = Date.now();
  appStore.set(linkCheckAtom, ok ? 'up' : 'down');
  if (ok) {
    waiting?.();
    waiting = null;
  } else if (!waiting) {
    // Down: the network's return (an `online` event, any answer, reconnect.ts's own probing) lifts it.
    waiting = whenBackOnline(() => settle(true));
  }
}

function record(ok: boolean) {
  misses = ok ? 0 : misses + 1;
  const evidence = starving;
  starving = false;
  if (!ok && !evidence && misses < MISSES_FOR_DOWN) {
    // Still "checking": kept videos stay on their kept copy, the others are not told to wait yet.
    lastAt = 0;
    void probeLink();
    return;
  }
  settle(ok);
  // The same news for every screen waiting to heal; reconnect.ts probes on while it is down.
  noteRequestOutcome(ok);
}

/**
 * Whether the link answered just now (shared by calls within a few seconds). `stalled`: the video on screen
 * waits on the network, so an earlier answer is no longer news and one miss means down.
 */
export function probeLink({ stalled = false } = {}): Promise<boolean> {
  // Already down, a stall is no news: the look goes on as usual (and reconnect.ts probes meanwhile).
  if (stalled && lastOk) starving = true;
  else if (Date.now() - lastAt < FRESH_MS) return Promise.resolve(lastOk);
  // Until it answers, a kept video stays on its kept rendition (see linkUpAtom).
  if (lastOk && !probing) appStore.set(linkCheckAtom, 'checking');
  probing ??= serverAnswers(AbortSignal.timeout(PROBE_TIMEOUT_MS)).then((ok) => {
    probing = null;
    record(ok);
    return ok;
  });
  return probing;
}
