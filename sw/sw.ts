import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare let self: ServiceWorkerGlobalScope;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Any in-app URL opens offline from the precached shell; the API, media files and the health probe are
// server paths, never app routes, and must reach the network.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [/^\/v1\//, /^\/media\//, /^\/healthz(?:$|[/?])/],
  }),
);

// Prompt flow: a new worker waits until the page, after the user agreed, asks it to take over. No
// clientsClaim(): open tabs keep the version they started with until they reload.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
