// Pure rules of the feed window and its gestures, kept apart from React so they can be tested directly.

/** Spec §9 swipe constants. */
export const SWIPE = {
  /** A drag this long (px) moves to the neighbouring video. */
  commit: 30,
  /** Shorter than this (px) the slide snaps back; the band up to `commit` snaps back too. */
  snapBack: 20,
  /** Any movement under this (px) is a tap. */
  tap: 10,
  /** Slide animation (ms). */
  animationMs: 200,
  /** Wheel and arrow keys move at most once per this many ms. */
  throttleMs: 500,
  /** Scrubbing waits this long (ms) before seeking. */
  seekDebounceMs: 70,
} as const;

export const SLOT_COUNT = 3;

/** When this few videos are left after the current one, the next page is fetched. */
export const PREFETCH_REMAINING = 3;

export interface SlotAssignment {
  /** Index into the feed list, or null when the slot has nothing to show (before the first, after the last). */
  index: number | null;
  /** -1 above the screen, 0 on screen, 1 below. */
  offset: -1 | 0 | 1;
}

/**
 * Which video each of the three recycled slots holds. Video i always lives in slot i mod 3, so moving one
 * step re-points exactly one slot (the one leaving the window) and the other two keep their decoded frames.
 */
export function assignSlots(current: number, length: number): SlotAssignment[] {
  const slots: SlotAssignment[] = [];
  for (let slot = 0; slot < SLOT_COUNT; slot++) {
    // The one i in {current-1, current, current+1} congruent to `slot` modulo 3.
    const offset = ((((slot - current + 1) % 3) + 3) % 3) - 1;
    const index = current + offset;
    slots.push({ index: index >= 0 && index < length ? index : null, offset: offset as -1 | 0 | 1 });
  }
  return slots;
}

export type Gesture = 'tap' | 'next' | 'previous' | 'profile' | 'snap';

/**
 * What a finished drag means. Reading chosen (spec §5 gives both): the finger moving up brings the next
 * video, as the coach hint 'SWIPE UP / For Next Video' says and as every short-video app does.
 */
export function classifyGesture(dx: number, dy: number): Gesture {
  const ax = Math.abs(dx);
  const ay = Math.abs(dy);
  if (ax < SWIPE.tap && ay < SWIPE.tap) return 'tap';
  if (ay >= ax) {
    if (ay < SWIPE.commit) return 'snap';
    return dy < 0 ? 'next' : 'previous';
  }
  if (dx <= -SWIPE.commit) return 'profile';
  return 'snap';
}

/** Where a step would land, or null at either end of the list (the first cannot go back, the last not on). */
export function step(current: number, length: number, direction: 1 | -1): number | null {
  const target = current + direction;
  return target >= 0 && target < length ? target : null;
}

/** Resistance at the ends: the slide follows the finger a little, then stops, so the edge is felt. */
export function dragOffset(dy: number, current: number, length: number): number {
  const atTop = current === 0 && dy > 0;
  const atBottom = current >= length - 1 && dy < 0;
  if (atTop || atBottom) return Math.sign(dy) * Math.min(Math.abs(dy) / 4, 40);
  return dy;
}

/** A throttle that lets the first call through and drops the rest for `ms` (wheel, arrow keys). */
export function throttle(ms: number, now: () => number = () => performance.now()) {
  let last = Number.NEGATIVE_INFINITY;
  return (): boolean => {
    const t = now();
    if (t - last < ms) return false;
    last = t;
    return true;
  };
}

export type Shortcut = 'next' | 'previous' | 'toggle' | 'mute' | 'like' | 'back' | 'forward' | 'help';

/** The feed's keyboard shortcuts, in the order the "?" sheet lists them. */
export const SHORTCUTS: { keys: string[]; action: Shortcut; label: string }[] = [
  { keys: ['Space', 'K'], action: 'toggle', label: 'Play or pause' },
  { keys: ['↓', 'Page Down'], action: 'next', label: 'Next video' },
  { keys: ['↑', 'Page Up'], action: 'previous', label: 'Previous video' },
  { keys: ['←'], action: 'back', label: 'Back 5 seconds' },
  { keys: ['→'], action: 'forward', label: 'Forward 5 seconds' },
  { keys: ['M'], action: 'mute', label: 'Mute or unmute' },
  { keys: ['L'], action: 'like', label: 'Like or unlike' },
  { keys: ['?'], action: 'help', label: 'Show these shortcuts' },
];

/** A left or right arrow moves the video on screen this many seconds. */
export const SEEK_STEP_S = 5;

const KEYS: Record<string, Shortcut> = {
  ArrowDown: 'next',
  PageDown: 'next',
  ArrowUp: 'previous',
  PageUp: 'previous',
  ArrowLeft: 'back',
  ArrowRight: 'forward',
  ' ': 'toggle',
  k: 'toggle',
  K: 'toggle',
  m: 'mute',
  M: 'mute',
  l: 'like',
  L: 'like',
  '?': 'help',
};

/**
 * What a key pressed over the feed does. Never while typing (a field has the keys), never with Ctrl, Cmd or
 * Alt (the browser's own shortcuts), and Space is the focused button's or link's own activation key.
 */
export function shortcutFor(
  key: string,
  modifiers: { ctrl: boolean; meta: boolean; alt: boolean },
  target: { typing: boolean; onControl: boolean },
): Shortcut | null {
  if (target.typing || modifiers.ctrl || modifiers.meta || modifiers.alt) return null;
  if (key === ' ' && target.onControl) return null;
  return KEYS[key] ?? null;
}
