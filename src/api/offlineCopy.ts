/** Set by the service worker on an API answer it gave from the device because the network did not answer. */
export const OFFLINE_COPY_HEADER = 'X-Offline-Copy';
