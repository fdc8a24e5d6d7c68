// The video after the next one: its master playlist, lowest variant and first segment are fetched into the
// HTTP cache (segments are served for a day and media playlists for a minute; the master only for 5 s, as it
// grows while a fresh upload's ladder finishes, so it is asked again), so by the time the video becomes the
// next slot and buffers, its start is already on the device and a quick swiper does not wait on the network.
// Not the service worker's cache: sending every segment of the video playing through the worker would add
// a hop to each of them, and the HTTP cache is what hls.js reads. Only for hls.js (see playsHlsNatively).
// The same chain as index.html's boot script for the first video, which cannot import this module.

import { playlistUris } from '../../../contract/playlist';
import { playsHlsNatively } from './useSlotSource';

const warmed = new Set<string>();
/** Enough to never fetch a start twice in a session's feed, small enough to stay a few KB. */
const MAX_REMEMBERED = 200;

/** The first URI of a playlist, resolved against the playlist's own URL. */
function firstUri(playlistUrl: string, text: string): string | null {
  const [uri] = playlistUris(text);
  return uri ? new URL(uri, new URL(playlistUrl, window.location.href)).href : null;
}

async function text(url: string): Promise<string | null> {
  const response = await fetch(url, { priority: 'low', credentials: 'same-origin' });
  return response.ok ? response.text() : null;
}

/**
 * Fire and forget; nothing on a data-saving connection, nothing twice, and nothing for a native HLS player,
 * which never reads a warmed copy (see playsHlsNatively): there it would only spend mobile data twice.
 */
export function warmFirstSegment(playlistUrl: string): void {
  const connection = (navigator as Navigator & { connection?: { saveData?: boolean } }).connection;
  if (connection?.saveData || playsHlsNatively() || warmed.has(playlistUrl)) return;
  if (warmed.size >= MAX_REMEMBERED) warmed.clear();
  warmed.add(playlistUrl);
  void (async () => {
    const master = await text(playlistUrl);
    const variant = master && firstUri(playlistUrl, master);
    const playlist = variant && (await text(variant));
    const segment = playlist && variant && firstUri(variant, playlist);
    // The body must be read for the response to be stored whole.
    if (segment) await (await fetch(segment, { priority: 'low', credentials: 'same-origin' })).blob();
  })().catch(() => {
    // Offline or a failed request: the slot loads it the normal way when its turn comes.
    warmed.delete(playlistUrl);
  });
}
