import { useEffect } from 'react';
import { useEffectEvent } from '../state/effectEvent';
import { ApiError } from './apiError';

/**
 * Screens that heal when the network returns (issue 35). A failed load waits here (`whenBackOnline`,
 * `useHealing`) and loads again by itself when the network is back, which is any of:
 * - the window's `online` event;
 * - the app coming to the foreground (visibilitychange → visible): a phone's network often changed meanwhile;
 * - an API request answered after requests went unanswered (`noteRequestOutcome`, from src/api/http.ts);
 * - a probe of the server's /healthz answering after it could not be reached. The browser may believe it is
 *   online behind a dead Wi-Fi or with the server down, and then no `online` event ever comes: so while a
 *   screen waits and the server is believed unreachable, /healthz is asked about every PROBE_MS. Never when
 *   nothing waits, never while the browser is offline (its `online` event will say) or the app is hidden.
 *
 * Signals of the same return (an `online` event, then the first answered request) reach the waiters once:
 * at most one round of callbacks every MIN_GAP_MS, a later signal waiting for the gap, never dropped.
 */

/** How often the server is asked whether it answers again while a screen waits for it. */
const PROBE_MS = 1500;
/** A probe that takes longer than this counts as unanswered. */
const PROBE_TIMEOUT_MS = 5000;
/** Two rounds of callbacks are at least this far apart: one return of the network, one retry. */
const MIN_GAP_MS = 1000;

const waiters = new Set<() => void>();
/** Whether the server is believed unreachable: a request or a probe went unanswered, or the browser is offline. */
let down = false;
let flushTimer: ReturnType<typeof setTimeout> | undefined;
let lastFlush = Number.NEGATIVE_INFINITY;
let probeTimer: ReturnType<typeof setTimeout> | undefined;
const probes = new Set<AbortController>();
/** Probes are numbered: the answer of an older one, settling late, never overrides a newer one's. */
let probeSeq = 0;
let settledSeq = 0;

const browserOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;
const hidden = () => typeof document !== 'undefined' && document.visibilityState === 'hidden';

function flush() {
  flushTimer = undefined;
  lastFlush = Date.now();
  // A callback may unsubscribe (its screen loads again) or subscribe anew: the round is the set as it was.
  for (const waiter of [...waiters]) {
    try {
      waiter();
    } catch (error) {
      // One screen's failure must not keep the others from healing.
      setTimeout(() => {
        throw error;
      });
    }
  }
}

/** The network is back: the waiters are called (once per return, see MIN_GAP_MS). */
function back() {
  down = false;
  updateProbe();
  if (waiters.size === 0 || flushTimer !== undefined) return;
  flushTimer = setTimeout(flush, Math.max(0, lastFlush + MIN_GAP_MS - Date.now()));
}

/** Whether the server answers its health check: the one question both this module and link.ts ask. */
export function serverAnswers(signal: AbortSignal): Promise<boolean> {
  return fetch('/healthz', { cache: 'no-store', credentials: 'same-origin', signal }).then(
    (response) => response.ok,
    () => false,
  );
}

function probe() {
  const seq = ++probeSeq;
  const controller = new AbortController();
  probes.add(controller);
  const timer = setTimeout(() => controller.abort(), PROBE_TIMEOUT_MS);
  serverAnswers(controller.signal).then((ok) => {
    clearTimeout(timer);
    // Stopped (nothing waits, or the network is back), or a newer probe has already spoken.
    if (!probes.delete(controller) || seq < settledSeq) return;
    settledSeq = seq;
    if (ok) {
      if (down) back();
    } else {
      down = true;
      updateProbe();
    }
  });
}

function tick() {
  probeTimer = undefined;
  if (!browserOffline() && !hidden()) probe();
  updateProbe();
}

/** Probes run while a screen waits and the server is believed unreachable; otherwise they stop. */
function updateProbe() {
  const wanted = waiters.size > 0 && down;
  if (wanted && probeTimer === undefined) probeTimer = setTimeout(tick, PROBE_MS);
  if (!wanted) {
    clearTimeout(probeTimer);
    probeTimer = undefined;
    const stopped = [...probes];
    probes.clear();
    for (const controller of stopped) controller.abort();
  }
}

const onOnline = () => back();
const onOffline = () => {
  down = true;
  updateProbe();
};
const onVisibility = () => {
  if (document.visibilityState === 'visible') back();
};

function listen(on: boolean) {
  const method = on ? 'addEventListener' : 'removeEventListener';
  window[method]('online', onOnline);
  window[method]('offline', onOffline);
  document[method]('visibilitychange', onVisibility);
}

/**
 * Calls `callback` each time the network returns (see above), until the returned function unsubscribes: a
 * repeating waiter, so a retry that fails again waits for the next return without subscribing anew.
 * Subscribe only while something failed, and unsubscribe once it loads again: the server is probed as long
 * as a waiter is subscribed and the server is believed unreachable.
 */
export function whenBackOnline(callback: () => void): () => void {
  // A function object of its own: the same callback subscribed twice is two waiters.
  const waiter = () => callback();
  if (waiters.size === 0) listen(true);
  waiters.add(waiter);
  if (browserOffline()) down = true;
  updateProbe();
  return () => {
    if (!waiters.delete(waiter)) return;
    if (waiters.size === 0) {
      listen(false);
      clearTimeout(flushTimer);
      flushTimer = undefined;
    }
    updateProbe();
  };
}

/**
 * While `failed` is true, calls `heal` (its latest version) each time the network returns: once per return.
 * `heal` is expected to load again, which ends the failure (or starts a new one that waits for the next return).
 */
export function useHealing(failed: boolean, heal: () => void): void {
  const latest = useEffectEvent(heal);
  useEffect(() => (failed ? whenBackOnline(latest) : undefined), [failed]);
}

/**
 * What became of one API request, told by the HTTP client: `ok` is false when it got no answer (or only a
 * gateway's 502/503/504 that the server could not be reached), true for any other answer. An answer after
 * unanswered requests means the network is back.
 */
export function noteRequestOutcome(ok: boolean): void {
  if (ok) {
    if (down) back();
    return;
  }
  down = true;
  updateProbe();
}

/**
 * Whether a failed request may succeed if made again: no answer (an ApiError of status 0, or anything that is
 * not an ApiError, such as fetch's TypeError), a timeout (408), too many requests (429) or a server fault
 * (5xx). Any other 4xx answer would be the same again.
 */
export function isRetryable(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.status === 0 || error.status === 408 || error.status === 429 || error.status >= 500;
}
