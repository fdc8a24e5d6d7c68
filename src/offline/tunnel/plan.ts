// The tunnel buffer's decisions, without I/O: which videos to keep, how much of each, which to let go, and
// what an offline feed shows. store.ts and keeper.ts do the fetching and storing; README.md says why.
import type { Video } from '../../contract/video';
import { TUNNEL } from './limits';

/** One kept video, as the manifest remembers it. */
export interface KeptVideo {
  id: number;
  /** The feed it was kept for (FeedSource.key), so an offline feed shows its own videos first. */
  feed: string;
  /** The list entry as the feed showed it: an offline feed draws its slots from this. */
  video: Video;
  /** Every URL stored for it (playlists, segments, poster): what eviction deletes. */
  urls: string[];
  bytes: number;
  /** Its place in the feed when kept, for showing kept videos in the feed's order. */
  order: number;
  keptAt: number;
  usedAt: number;
  watched: boolean;
}

/**
 * The videos to keep now: the one on screen and the next `ahead`, in feed order, skipping unplayable ones.
 * Not the one on screen when `withCurrent` is false: a browser's own HLS player is already downloading it
 * with requests no script's copy can answer, and keeping it would spend its data twice.
 */
export function wanted(
  videos: readonly Video[],
  current: number,
  { ahead = TUNNEL.ahead, withCurrent = true }: { ahead?: number; withCurrent?: boolean } = {},
): Video[] {
  const from = Math.max(current, 0);
  return videos.slice(withCurrent ? from : from + 1, from + ahead + 1).filter((v) => v.playlistUrl);
}

interface Variant {
  uri: string;
  bandwidth: number;
}

/** The variants of a master playlist with their declared bandwidth. */
function variants(master: string): Variant[] {
  const lines = master.split('\n').map((line) => line.trim());
  const found: Variant[] = [];
  lines.forEach((line, i) => {
    if (!line.startsWith('#EXT-X-STREAM-INF:')) return;
    const uri = lines.slice(i + 1).find((next) => next !== '' && !next.startsWith('#'));
    const bandwidth = Number(/BANDWIDTH=(\d+)/.exec(line)?.[1] ?? Number.POSITIVE_INFINITY);
    if (uri) found.push({ uri, bandwidth });
  });
  return found;
}

/**
 * The rendition to keep: the lowest. It is the one a player steps down to when the link slows, and the one
 * hls.js starts with (startLevel 0), so the kept copy also serves the first frames of a video online.
 */
export function lowestVariant(master: string): string | null {
  const all = variants(master);
  if (all.length === 0) return null;
  return all.reduce((low, v) => (v.bandwidth < low.bandwidth ? v : low)).uri;
}

/**
 * The segments worth keeping of a media playlist: all of a clip up to `wholeUpToSeconds`, else those that
 * start within its first `partSeconds`. Durations come from #EXTINF.
 */
export function segmentsToKeep(playlist: string): string[] {
  const lines = playlist.split('\n').map((line) => line.trim());
  const segments: { uri: string; seconds: number }[] = [];
  let seconds = 0;
  for (const line of lines) {
    const extinf = /^#EXTINF:([\d.]+)/.exec(line);
    if (extinf) seconds = Number(extinf[1]);
    else if (line !== '' && !line.startsWith('#')) {
      segments.push({ uri: line, seconds });
      seconds = 0;
    }
  }
  const total = segments.reduce((sum, s) => sum + s.seconds, 0);
  if (total <= TUNNEL.wholeUpToSeconds) return segments.map((s) => s.uri);
  const kept: string[] = [];
  let start = 0;
  for (const segment of segments) {
    if (start >= TUNNEL.partSeconds) break;
    kept.push(segment.uri);
    start += segment.seconds;
  }
  return kept;
}

/**
 * Which kept videos to let go so the rest fit `budget`: never those in `protect` (on screen and ahead);
 * watched ones before unwatched, each group least recently used first.
 */
export function evictions(
  entries: readonly KeptVideo[],
  budget: number,
  protect: ReadonlySet<number>,
): number[] {
  let total = entries.reduce((sum, e) => sum + e.bytes, 0);
  if (total <= budget) return [];
  const candidates = entries
    .filter((e) => !protect.has(e.id))
    .sort((a, b) => Number(b.watched) - Number(a.watched) || a.usedAt - b.usedAt);
  const out: number[] = [];
  for (const entry of candidates) {
    if (total <= budget) break;
    out.push(entry.id);
    total -= entry.bytes;
  }
  return out;
}

/**
 * The list an offline feed plays: the kept videos of this feed first (unwatched before watched, in feed
 * order), then those kept for other feeds, so a viewer who opened a tag before losing the network still has
 * something to watch on home.
 */
export function offlineList(entries: readonly KeptVideo[], feed: string): Video[] {
  const rank = (e: KeptVideo) => [e.feed === feed ? 0 : 1, e.watched ? 1 : 0, e.order, -e.keptAt] as const;
  return [...entries]
    .sort((a, b) => {
      const ra = rank(a);
      const rb = rank(b);
      for (let i = 0; i < ra.length; i += 1)
        if (ra[i] !== rb[i]) return (ra[i] as number) - (rb[i] as number);
      return 0;
    })
    .map((e) => e.video);
}
