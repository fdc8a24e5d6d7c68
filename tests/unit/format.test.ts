import { describe, expect, it } from 'vitest';
import { formatCount, formatDuration } from '../../src/ui/format';

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1K'],
    [1500, '1.5K'],
    [999_499, '999.5K'],
    [999_500, '1M'],
    [2_300_000, '2.3M'],
  ])('%i → %s', (value, expected) => {
    expect(formatCount(value)).toBe(expected);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '00:00'],
    [65, '01:05'],
    [600, '10:00'],
  ])('%i s → %s', (seconds, expected) => {
    expect(formatDuration(seconds)).toBe(expected);
  });
});
