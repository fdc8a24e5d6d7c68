// What the viewer sees, recorded inside the page (an init script, so it is there before the first video): for
// each video shown, when it first played, how much of it played, each stall, and when it reached its end.
// The viewer is here too: at each video's end (or, given a dwell, once it played that long) it moves to the
// next one (the app: an ArrowDown, as the feed's keyboard shortcut; the bare page: its next()), and it gives up
// on a video that shows nothing for a while.
//
// A video is a position in the feed: the app's <article aria-posinset> around the <video> (its slots are
// recycled, so the element alone says nothing), the bare page's data-nb-index.

export type Mode = 'app' | 'bare';

export interface VideoRecord {
  key: string;
  /** performance.now() of the first `playing` (or the first progress, if that came first). */
  firstPlayingAt: number | null;
  /** From the viewer's move to this video to its first playing, ms (null: the first video). */
  startGap: number | null;
  /** Media seconds played. */
  played: number;
  /** Media seconds played while the `window` mark was open (the tunnel). */
  playedInWindow: number;
  /** When it reached its end (ended, a loop back to the start, or within 0.2 s of it). */
  endedAt: number | null;
  /** When the viewer gave up on it (no picture for giveUpMs). */
  gaveUpAt: number | null;
  /** When the viewer swiped on before its end, having watched dwellMs of it. */
  leftAt: number | null;
  /** `waiting` after it had played, to the next `playing` (null: still waiting when the run ended). */
  stalls: [number, number | null][];
  duration: number;
  lastTime: number;
  errors: string[];
}

export interface Recording {
  now: number;
  videos: VideoRecord[];
  marks: Record<string, number>;
  /** Spans with no picture moving on screen and no dialog open, over 1 s, after the first frame. */
  dead: [number, number][];
  notes: string[];
  currentKey: string | null;
  /** The open dialog's name (the rating prompt's, or another sheet's): the driver closes it. */
  dialog: string | null;
}

declare global {
  interface Window {
    __nb?: {
      record(): Recording;
      mark(name: string): number;
    };
    /** The bare page's own: plays the next playlist. */
    nbNext?: () => void;
  }
}

/** Installed with context.addInitScript(installRecorder, options): runs in each new document. */
export function installRecorder(opts: { mode: Mode; giveUpMs: number; dwellMs?: number }) {
  if (window !== window.top) return;
  const videos = new Map<string, VideoRecord>();
  const marks: Record<string, number> = {};
  const dead: [number, number][] = [];
  const notes: string[] = [];
  let currentKey: string | null = null;
  let currentSince = 0;
  let lastAdvanceAt = 0;
  let pendingMoveAt: number | null = null;
  let lastProgressAt = 0;
  let deadSince: number | null = null;
  let lastTick = performance.now();
  const shown = new Set<string>();
  /** Where a player shows words over its video: a status or an alert (the app's failures use .feed-failed). */
  const SAYS = '[role=status], [role=alert], .feed-failed';

  const keyOf = (video: HTMLVideoElement): string | null =>
    opts.mode === 'bare'
      ? (video.dataset.nbIndex ?? null)
      : (video.closest('article')?.getAttribute('aria-posinset') ?? null);
  const currentVideo = (): HTMLVideoElement | null =>
    opts.mode === 'bare'
      ? document.querySelector('video')
      : document.querySelector('[role=feed] article[aria-hidden=false] video');
  const isCurrent = (video: HTMLVideoElement) => currentVideo() === video;
  const dialogName = () => {
    const open = document.querySelector('dialog[open]');
    if (!open) return null;
    const labelled = open.getAttribute('aria-labelledby');
    const name =
      open.getAttribute('aria-label') ??
      (labelled ? document.getElementById(labelled)?.textContent : null) ??
      open.querySelector('h1, h2, h3')?.textContent ??
      'dialog';
    return name.trim().slice(0, 60) || 'dialog';
  };
  const inWindow = (t: number) =>
    marks.windowStart !== undefined && t >= marks.windowStart && (marks.windowEnd ?? Infinity) > t;

  const recordOf = (key: string): VideoRecord => {
    let rec = videos.get(key);
    if (!rec) {
      rec = {
        key,
        firstPlayingAt: null,
        startGap: null,
        played: 0,
        playedInWindow: 0,
        endedAt: null,
        gaveUpAt: null,
        leftAt: null,
        stalls: [],
        duration: Number.NaN,
        lastTime: 0,
        errors: [],
      };
      videos.set(key, rec);
    }
    return rec;
  };

  const closeStall = (rec: VideoRecord, at: number) => {
    const last = rec.stalls.at(-1);
    if (last && last[1] === null) last[1] = at;
  };

  const started = (rec: VideoRecord, at: number) => {
    if (rec.firstPlayingAt !== null) return;
    rec.firstPlayingAt = at;
    if (pendingMoveAt !== null) rec.startGap = at - pendingMoveAt;
    pendingMoveAt = null;
  };

  /** The viewer moves on: a swipe in the app (its ArrowDown shortcut), the bare page's next(). */
  const advance = () => {
    const now = performance.now();
    lastAdvanceAt = now;
    pendingMoveAt = now;
    if (currentKey !== null) closeStall(recordOf(currentKey), now);
    if (opts.mode === 'bare') window.nbNext?.();
    else
      window.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'ArrowDown', code: 'ArrowDown', bubbles: true }),
      );
  };

  /** Done with: reached its end, or watched for the dwell. */
  const done = (rec: VideoRecord) => rec.endedAt !== null || rec.leftAt !== null;

  const reachedEnd = (rec: VideoRecord, video: HTMLVideoElement, at: number) => {
    if (rec.endedAt !== null) return;
    rec.endedAt = at;
    closeStall(rec, at);
    if (isCurrent(video)) advance();
  };

  const onEvent = (event: Event) => {
    const video = event.target;
    if (!(video instanceof HTMLVideoElement)) return;
    const key = keyOf(video);
    if (key === null) return;
    const rec = recordOf(key);
    const now = performance.now();
    switch (event.type) {
      case 'playing':
        started(rec, now);
        closeStall(rec, now);
        break;
      case 'waiting':
        // A looping video's turn (the app's): the seek back to the start waits a moment (through hls.js the
        // first frame lies just after 0). That is its end, where the viewer moves on, not a stall.
        if (opts.mode === 'app' && video.seeking && video.currentTime < 0.5 && rec.played > 1) {
          reachedEnd(rec, video, now);
          break;
        }
        // A stall: playback had started, the video is still the one watched, and it has not ended.
        if (rec.firstPlayingAt !== null && !done(rec) && !video.paused && isCurrent(video)) {
          if (rec.stalls.at(-1)?.[1] !== null) {
            rec.stalls.push([now, null]);
            // Where it waits, and what it had: a loop's turn, a gap, or a buffer run dry.
            const ranges = Array.from(
              { length: video.buffered.length },
              (_, i) => `${video.buffered.start(i).toFixed(2)}–${video.buffered.end(i).toFixed(2)}`,
            );
            if (notes.length < 40)
              notes.push(
                `${(now / 1000).toFixed(1)} s, video ${key} waits at ${video.currentTime.toFixed(2)} of ` +
                  `${video.duration.toFixed(2)} s (buffered ${ranges.join(', ') || 'nothing'})`,
              );
          }
        }
        break;
      case 'timeupdate': {
        const t = video.currentTime;
        const step = t - rec.lastTime;
        rec.duration = video.duration;
        if (step > 0 && step < 2 && !video.seeking) {
          rec.played += step;
          if (inWindow(now)) rec.playedInWindow += step;
          lastProgressAt = now;
          if (marks.windowEnd !== undefined && marks.resumed === undefined) marks.resumed = now;
          if (!video.paused) started(rec, now);
          closeStall(rec, now);
        }
        rec.lastTime = t;
        if (opts.dwellMs && !done(rec) && rec.played * 1000 >= opts.dwellMs && isCurrent(video)) {
          rec.leftAt = now;
          closeStall(rec, now);
          advance();
          break;
        }
        // A looping video (the app's) never ends: its jump back to the start is its end.
        if (opts.mode === 'app' && step < -1 && rec.played > 1) reachedEnd(rec, video, now);
        else if (Number.isFinite(video.duration) && t >= video.duration - 0.2 && rec.played > 0)
          reachedEnd(rec, video, now);
        break;
      }
      case 'ended':
        reachedEnd(rec, video, now);
        break;
      case 'pause':
      case 'emptied':
        closeStall(rec, now);
        break;
      case 'error':
        rec.errors.push(`MediaError ${video.error?.code ?? '?'}: ${video.error?.message ?? ''}`.trim());
        break;
    }
  };
  for (const type of ['playing', 'waiting', 'timeupdate', 'ended', 'pause', 'emptied', 'error']) {
    document.addEventListener(type, onEvent, true);
  }

  // Every 250 ms: which video is on screen, whether anything moves, and whether the viewer gives up.
  setInterval(() => {
    const now = performance.now();
    const video = currentVideo();
    const key = video ? keyOf(video) : null;
    if (key !== currentKey) {
      currentKey = key;
      currentSince = now;
    }
    const dialog = document.querySelector('dialog[open]') !== null;
    const moving = lastProgressAt > lastTick;
    lastTick = now;
    const firstFrameSeen = [...videos.values()].some((v) => v.firstPlayingAt !== null);
    if (moving || dialog || !firstFrameSeen) {
      if (deadSince !== null && now - deadSince > 1000) dead.push([deadSince, now]);
      deadSince = null;
    } else deadSince ??= now;
    if (key === null || !video || dialog) return;
    const rec = recordOf(key);
    // What the player says about the video on screen (a spinner's label, a failure, "waiting for network").
    const said = video.closest('article')?.querySelector(SAYS)?.textContent?.trim();
    if (said && !shown.has(said) && notes.length < 40) {
      shown.add(said);
      notes.push(`${(now / 1000).toFixed(1)} s, video ${key} shows "${said.slice(0, 100)}"`);
    }
    // An ArrowDown that did not move the feed (it came while a sheet was closing): again.
    if (done(rec) && now - lastAdvanceAt > 1500) advance();
    const still = now - Math.max(lastProgressAt, currentSince, lastAdvanceAt);
    if (!done(rec) && rec.gaveUpAt === null && still > opts.giveUpMs) {
      rec.gaveUpAt = now;
      closeStall(rec, now);
      if (notes.length < 40) {
        notes.push(
          `${(now / 1000).toFixed(1)} s, gave up on video ${key} after ${(still / 1000).toFixed(0)} s still ` +
            `(readyState ${video.readyState}, networkState ${video.networkState}` +
            `${video.error ? `, MediaError ${video.error.code}` : ''})`,
        );
      }
      advance();
    }
  }, 250);

  window.__nb = {
    mark(name: string) {
      marks[name] = performance.now();
      return marks[name];
    },
    record() {
      const now = performance.now();
      const openDead: [number, number][] =
        deadSince !== null && now - deadSince > 1000 ? [[deadSince, now]] : [];
      return {
        now,
        videos: [...videos.values()],
        marks: { ...marks },
        dead: [...dead, ...openDead],
        notes: [...notes],
        currentKey,
        dialog: dialogName(),
      };
    },
  };
}
