// Where the layers meet. src/api, src/state and src/offline import one way (src/README.md), so what a lower
// layer needs of a higher one is handed to it here, once, before anything is asked of it: src/main.tsx calls
// this first, and so does the unit tests' setup.
import { configureHttp } from '../api/http';
import { getGuestId } from '../offline/kv';
import { OFFLINE_COPY_HEADER } from '../offline/tunnel/names';
import { readAuth } from '../state/auth';
import { offlineCopyAtom } from '../state/network';
import { appStore } from '../state/store';

export function connectLayers(): void {
  configureHttp({
    authToken: () => readAuth()?.accessToken ?? null,
    guestId: getGuestId,
    // The service worker marks what it answered from the device (src/offline/tunnel).
    isOfflineCopy: (response) => response.headers.get(OFFLINE_COPY_HEADER) === '1',
    onOfflineCopy: (copy) => appStore.set(offlineCopyAtom, copy),
  });
}
