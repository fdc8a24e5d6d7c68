import { afterEach, describe, expect, it } from 'vitest';
import {
  isHouseLink,
  POP_INTERVAL_MS,
  popDue,
  sessionFlag,
  setSessionFlag,
} from '../../src/features/feed/ads/adRules';

const now = Date.UTC(2025, 5, 1, 12);

describe('popDue', () => {
  it('opens on the first tap of a device that never saw it', () => {
    expect(popDue(undefined, now, false)).toBe(true);
  });

  it('waits a full day after the last pop', () => {
    expect(popDue(now - 60_000, now, false)).toBe(false);
    expect(popDue(now - POP_INTERVAL_MS + 1, now, false)).toBe(false);
    expect(popDue(now - POP_INTERVAL_MS, now, false)).toBe(true);
    expect(popDue(now - 3 * POP_INTERVAL_MS, now, false)).toBe(true);
  });

  it('only ever on the first tap of a session', () => {
    expect(popDue(undefined, now, true)).toBe(false);
    expect(popDue(now - 3 * POP_INTERVAL_MS, now, true)).toBe(false);
  });

  it('is not blocked for ever by a bad stored time', () => {
    expect(popDue(now + POP_INTERVAL_MS, now, false)).toBe(true);
    expect(popDue('yesterday', now, false)).toBe(true);
    expect(popDue(Number.NaN, now, false)).toBe(true);
  });
});

describe('session flags', () => {
  afterEach(() => sessionStorage.clear());

  it('are remembered for the tab', () => {
    expect(sessionFlag('imShown')).toBe(false);
    setSessionFlag('imShown');
    expect(sessionFlag('imShown')).toBe(true);
    expect(sessionFlag('footerClosed')).toBe(false);
  });
});

describe('isHouseLink', () => {
  it("takes the app's own paths, and no other site's address", () => {
    expect(isHouseLink('/register/model')).toBe(true);
    expect(isHouseLink('/upload?from=ad')).toBe(true);
    expect(isHouseLink('https://ads.example/x')).toBe(false);
    expect(isHouseLink('//ads.example/x')).toBe(false);
    // Browsers read a backslash as a slash in an http URL: /\\host is another site too.
    expect(isHouseLink('/\\ads.example/x')).toBe(false);
    expect(isHouseLink('register/model')).toBe(false);
  });
});
