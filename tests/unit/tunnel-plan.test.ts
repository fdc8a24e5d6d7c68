import { describe, expect, it } from 'vitest';
import type { Video } from '../../src/contract';
import { bufferedEnough, runningDry } from '../../src/features/feed/player/bufferAhead';
import { TUNNEL } from '../../src/offline/tunnel/limits';
import {
  evictions,
  type KeptVideo,
  lowestVariant,
  offlineList,
  segmentsToKeep,
  wanted,
} from '../../src/offline/tunnel/plan';
import { defaultKeepSetting, mayKeep } from '../../src/offline/tunnel/setting';

const video = (id: number, playable = true): Video =>
  ({ id, playlistUrl: playable ? `/media/videos/${id}/master.m3u8` : null }) as Video;

const kept = (id: number, over: Partial<KeptVideo> = {}): KeptVideo => ({
  id,
  feed: 'home',
  video: video(id),
  urls: [],
  bytes: 10,
  order: id,
  keptAt: 0,
  usedAt: 0,
  watched: false,
  ...over,
});

const mediaPlaylist = (durations: number[]) =>
  [
    '#EXTM3U',
    '#EXT-X-TARGETDURATION:4',
    ...durations.flatMap((d, i) => [`#EXTINF:${d.toFixed(3)},`, `seg_${String(i).padStart(3, '0')}.ts`]),
    '#EXT-X-ENDLIST',
  ].join('\n');

describe('tunnel buffer: what to keep', () => {
  it('keeps the video on screen and the next ten, skipping the ones without a playlist', () => {
    const list = Array.from({ length: 30 }, (_, i) => video(i, i !== 5));
    const ids = wanted(list, 3).map((v) => v.id);
    expect(wanted(list, 3, { withCurrent: false })[0]?.id).toBe(4);
    expect(ids).toEqual([3, 4, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(wanted(list, 28).map((v) => v.id)).toEqual([28, 29]);
    expect(TUNNEL.ahead).toBe(10);
  });

  it('keeps the lowest rendition, whatever order the master lists them in', () => {
    const master = [
      '#EXTM3U',
      '#EXT-X-STREAM-INF:BANDWIDTH=1596000,RESOLUTION=540x960',
      '540p/index.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=496000,RESOLUTION=270x480',
      '270p/index.m3u8',
    ].join('\n');
    expect(lowestVariant(master)).toBe('270p/index.m3u8');
    expect(lowestVariant('#EXTM3U\n')).toBeNull();
  });

  it('keeps a clip of up to 60 s whole, and only the first 30 s of a longer one', () => {
    expect(segmentsToKeep(mediaPlaylist([4, 4, 4, 2.5]))).toHaveLength(4);
    expect(segmentsToKeep(mediaPlaylist(Array(15).fill(4)))).toHaveLength(15);
    // 61 s: segments starting at 0, 4, ... 28 s are kept, the one starting at 32 s is not.
    const long = segmentsToKeep(mediaPlaylist([...Array(15).fill(4), 1]));
    expect(long).toHaveLength(8);
    expect(long.at(-1)).toBe('seg_007.ts');
  });

  it('fetches by default on Wi-Fi where the browser says, always where it cannot, never on Save-Data', () => {
    expect(defaultKeepSetting({ type: 'cellular' })).toBe('wifi');
    expect(defaultKeepSetting({})).toBe('always');
    expect(mayKeep('wifi', { type: 'cellular' })).toBe(false);
    expect(mayKeep('wifi', { type: 'wifi' })).toBe(true);
    expect(mayKeep('always', { type: 'cellular' })).toBe(true);
    expect(mayKeep('always', { type: 'wifi', saveData: true })).toBe(false);
    expect(mayKeep('never', { type: 'wifi' })).toBe(false);
  });
});

describe('tunnel buffer: what to let go', () => {
  it('does nothing within the budget', () => {
    expect(evictions([kept(1), kept(2)], 20, new Set())).toEqual([]);
  });

  it('lets watched videos go before unwatched ones, least recently used first, never the protected ones', () => {
    const entries = [
      kept(1, { usedAt: 5 }),
      kept(2, { usedAt: 1, watched: true }),
      kept(3, { usedAt: 9, watched: true }),
      kept(4, { usedAt: 0 }),
      kept(5, { usedAt: 0, watched: true }),
    ];
    // 50 bytes in a 25-byte budget: three go. Watched first (5 is protected), oldest first, then unwatched.
    expect(evictions(entries, 25, new Set([5]))).toEqual([2, 3, 4]);
  });

  it('keeps what it must even over budget when everything is protected', () => {
    expect(evictions([kept(1), kept(2)], 5, new Set([1, 2]))).toEqual([]);
  });
});

describe('tunnel buffer: the offline feed', () => {
  it("plays this feed's unwatched videos first in feed order, then its watched ones, then other feeds'", () => {
    const entries = [
      kept(7, { feed: 'tag:1', order: 0 }),
      kept(3, { order: 3, watched: true }),
      kept(5, { order: 5 }),
      kept(4, { order: 4 }),
    ];
    expect(offlineList(entries, 'home').map((v) => v.id)).toEqual([4, 5, 3, 7]);
  });
});

describe('the video on screen is safe', () => {
  const ranges = (...pairs: [number, number][]) => ({
    length: pairs.length,
    start: (i: number) => pairs[i]?.[0] ?? 0,
    end: (i: number) => pairs[i]?.[1] ?? 0,
  });

  it('once 10 s past the playhead are buffered, or the whole clip', () => {
    expect(bufferedEnough(ranges([0, 6]), 1, 30)).toBe(false);
    expect(bufferedEnough(ranges([0, 11.5]), 1, 30)).toBe(true);
    expect(bufferedEnough(ranges([0, 7.9]), 2, 8)).toBe(true);
    // Buffered ahead in another range than the playhead's: not safe.
    expect(bufferedEnough(ranges([0, 2], [3, 20]), 2.5, 30)).toBe(false);
    expect(bufferedEnough(ranges(), 0, Number.NaN)).toBe(false);
  });

  it('runs dry mid-clip with under half a second ahead, never at its end (where a loop turns)', () => {
    expect(runningDry(ranges([0, 4.2]), 4.1, 10)).toBe(true);
    expect(runningDry(ranges(), 0, Number.NaN)).toBe(true);
    expect(runningDry(ranges([0, 6]), 4.1, 10)).toBe(false);
    // At the end of a 6.1 s clip, all of it buffered: the clip is finishing, not starving.
    expect(runningDry(ranges([0, 6.1]), 6.05, 6.1)).toBe(false);
    // A gap at the playhead: starving even with more buffered further on.
    expect(runningDry(ranges([0, 4], [6, 9]), 4, 10)).toBe(true);
  });
});
