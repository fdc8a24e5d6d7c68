// Shared by the page (which fills the tunnel buffer) and the service worker (which answers from it).

/** Cache Storage name of the kept videos: playlists, segments and posters, under their own URLs. */
export const TUNNEL_CACHE = 'shortcams-tunnel-v1';

// Set by the worker on an API answer it gave from the device; defined beside the API client that reads it.
export { OFFLINE_COPY_HEADER } from '../../api/offlineCopy';
