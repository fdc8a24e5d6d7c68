import { describe, expect, it } from 'vitest';
import {
  assignSlots,
  classifyGesture,
  dragOffset,
  SHORTCUTS,
  SLOT_COUNT,
  shortcutFor,
  step,
  throttle,
} from '../../src/features/feed/player/window';

describe('feed window', () => {
  it('keeps every video in the same slot while moving, so only one slot is re-pointed per step', () => {
    const length = 20;
    for (let current = 0; current < length - 1; current++) {
      const before = assignSlots(current, length);
      const after = assignSlots(current + 1, length);
      expect(before).toHaveLength(SLOT_COUNT);
      const changed = before.filter((slot, i) => slot.index !== after[i]?.index);
      // From the first video there is no previous one, so the step fills an empty slot instead.
      expect(changed).toHaveLength(1);
      for (const slot of after) if (slot.index !== null) expect(slot.index % 3).toBe(after.indexOf(slot));
    }
  });

  it('shows the current video on screen with its neighbours above and below', () => {
    const slots = assignSlots(4, 10);
    expect(slots.find((s) => s.offset === 0)?.index).toBe(4);
    expect(slots.find((s) => s.offset === -1)?.index).toBe(3);
    expect(slots.find((s) => s.offset === 1)?.index).toBe(5);
  });

  it('leaves the slots beyond either end empty', () => {
    expect(assignSlots(0, 5).find((s) => s.offset === -1)?.index).toBeNull();
    expect(assignSlots(4, 5).find((s) => s.offset === 1)?.index).toBeNull();
    expect(assignSlots(0, 1).filter((s) => s.index !== null)).toHaveLength(1);
  });

  it('cannot step before the first or past the last video', () => {
    expect(step(0, 5, -1)).toBeNull();
    expect(step(4, 5, 1)).toBeNull();
    expect(step(2, 5, 1)).toBe(3);
    expect(step(2, 5, -1)).toBe(1);
  });

  it('resists dragging past either end', () => {
    expect(Math.abs(dragOffset(200, 0, 5))).toBeLessThanOrEqual(40);
    expect(Math.abs(dragOffset(-200, 4, 5))).toBeLessThanOrEqual(40);
    expect(dragOffset(-200, 2, 5)).toBe(-200);
  });
});

describe('gestures (spec §9 constants)', () => {
  it('counts a swipe from 30 px: up is the next video, down the previous one', () => {
    expect(classifyGesture(0, -30)).toBe('next');
    expect(classifyGesture(3, 30)).toBe('previous');
  });

  it('snaps back under 30 px and treats under 10 px as a tap', () => {
    expect(classifyGesture(0, -19)).toBe('snap');
    expect(classifyGesture(0, -29)).toBe('snap');
    expect(classifyGesture(9, -9)).toBe('tap');
    expect(classifyGesture(0, 10)).toBe('snap');
  });

  it('opens the profile on a swipe to the left only', () => {
    expect(classifyGesture(-40, 5)).toBe('profile');
    expect(classifyGesture(40, 5)).toBe('snap');
  });

  it('throttles wheel and key steps to one per 500 ms', () => {
    let now = 0;
    const allow = throttle(500, () => now);
    expect(allow()).toBe(true);
    now = 499;
    expect(allow()).toBe(false);
    now = 500;
    expect(allow()).toBe(true);
  });
});

describe('wide-screen sidebar', () => {
  it('uses the spec breakpoints for its columns', async () => {
    const { sidebarColumns } = await import('../../src/features/feed/sidebar/sidebar');
    expect([200, 249, 250, 349, 350, 599, 600, 900].map(sidebarColumns)).toEqual([1, 1, 2, 2, 3, 3, 4, 4]);
  });

  it('mixes an ad after every n thumbnails, rotating placements', async () => {
    const { mixAds } = await import('../../src/features/feed/sidebar/sidebar');
    const ads = [
      { name: 'a', slotId: '1', type: 'banner' as const },
      { name: 'b', slotId: '2', type: 'native' as const },
    ];
    const mixed = mixAds([1, 2, 3, 4, 5, 6, 7], ads, 3);
    expect(mixed.map((x) => ('ad' in x ? x.ad.name : x.item))).toEqual([1, 2, 3, 'a', 4, 5, 6, 'b', 7]);
    expect(mixAds([1, 2], [], 1).map((x) => ('item' in x ? x.item : 'ad'))).toEqual([1, 2]);
  });
});

describe('keyboard shortcuts', () => {
  const none = { ctrl: false, meta: false, alt: false };
  const free = { typing: false, onControl: false };

  it('maps the keys the "?" sheet lists to their actions, either case', () => {
    expect(shortcutFor(' ', none, free)).toBe('toggle');
    expect(shortcutFor('k', none, free)).toBe('toggle');
    expect(shortcutFor('K', none, free)).toBe('toggle');
    expect(shortcutFor('m', none, free)).toBe('mute');
    expect(shortcutFor('L', none, free)).toBe('like');
    expect(shortcutFor('ArrowDown', none, free)).toBe('next');
    expect(shortcutFor('PageUp', none, free)).toBe('previous');
    expect(shortcutFor('ArrowLeft', none, free)).toBe('back');
    expect(shortcutFor('ArrowRight', none, free)).toBe('forward');
    expect(shortcutFor('?', none, free)).toBe('help');
    expect(shortcutFor('x', none, free)).toBeNull();
    // Every action the handler knows is listed for the viewer.
    const listed = new Set(SHORTCUTS.map((s) => s.action));
    for (const key of [' ', 'm', 'l', 'ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', '?'])
      expect(listed.has(shortcutFor(key, none, free) ?? 'help')).toBe(true);
  });

  it('never fires while typing, with a browser modifier, or as Space on a focused button', () => {
    expect(shortcutFor('l', none, { typing: true, onControl: false })).toBeNull();
    expect(shortcutFor(' ', none, { typing: true, onControl: false })).toBeNull();
    expect(shortcutFor('l', { ...none, ctrl: true }, free)).toBeNull();
    expect(shortcutFor('k', { ...none, meta: true }, free)).toBeNull();
    expect(shortcutFor('ArrowDown', { ...none, alt: true }, free)).toBeNull();
    expect(shortcutFor(' ', none, { typing: false, onControl: true })).toBeNull();
    // On a focused button the letters still work: only Space and Enter belong to the button.
    expect(shortcutFor('m', none, { typing: false, onControl: true })).toBe('mute');
  });
});
