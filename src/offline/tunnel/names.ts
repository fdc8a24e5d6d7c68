// Shared by the page (which fills the tunnel buffer) and the service worker (which answers from it).

/** Cache Storage name of the kept videos: playlists, segments and posters, under their own URLs. */
export const TUNNEL_CACHE = 'shortcams-tunnel-v1';

/** Set by the worker on an API answer it gave from the device because the network did not answer. */
export const OFFLINE_COPY_HEADER = 'X-Offline-Copy';
