import { clientsClaim, registerQuotaErrorCallback, type WorkboxPlugin } from 'workbox-core';
import { CacheExpiration, ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { createPartialResponse } from 'workbox-range-requests';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, StaleWhileRevalidate, type Strategy } from 'workbox-strategies';
import { getGuestId } from '../src/offline/kv';
import {
  flush,
  OUTBOX_SYNC_MESSAGE,
  OUTBOX_SYNC_TAG,
  type OutboxSender,
  pending,
  SendError,
} from '../src/offline/outbox';
import { OFFLINE_COPY_HEADER, TUNNEL_CACHE } from '../src/offline/tunnel/names';

declare let self: ServiceWorkerGlobalScope;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Any in-app URL opens offline from the precached shell; the API, media files and the health probe are
// server paths, never app routes, and must reach the network.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [/^\/v1\//, /^\/media\//, /^\/(?:healthz|readyz|metrics)(?:$|[/?])/],
  }),
);

// Runtime caches. Bump CACHE_VERSION when what a cache holds changes shape: activation then drops every
// runtime cache of an older version (workbox's own precache cleans up after itself).
const CACHE_VERSION = 'v1';
const CACHE_PREFIX = 'shortcams-';
const CACHES = {
  images: `${CACHE_PREFIX}images-${CACHE_VERSION}`,
  discover: `${CACHE_PREFIX}discover-${CACHE_VERSION}`,
  flags: `${CACHE_PREFIX}flags-${CACHE_VERSION}`,
  videoStarts: `${CACHE_PREFIX}video-starts-${CACHE_VERSION}`,
  lists: `${CACHE_PREFIX}lists-${CACHE_VERSION}`,
  // Filled by the page (src/offline/tunnel), read here; its name carries its own version.
  tunnel: TUNNEL_CACHE,
} as const;

/** Only complete answers are worth keeping; cross-origin images without CORS arrive opaque (status 0). */
const cacheable = (opaqueToo: boolean): WorkboxPlugin => ({
  cacheWillUpdate: async ({ response }) =>
    response.status === 200 || (opaqueToo && response.type === 'opaque') ? response : null,
});

/**
 * The discover answer carries no per-viewer data, but the API client adds the guest id to every GET:
 * without it in the key, one cached copy serves the device whoever is signed in.
 */
const withoutGuestId: WorkboxPlugin = {
  cacheKeyWillBeUsed: async ({ request }) => {
    const url = new URL(request.url);
    if (!url.searchParams.has('guest_id')) return request;
    url.searchParams.delete('guest_id');
    return url.href;
  },
};

const isMediaImage = (url: URL) =>
  url.origin === self.location.origin &&
  url.pathname.startsWith('/media/') &&
  /\.(?:jpe?g|png|webp|avif)$/i.test(url.pathname);

// The tunnel buffer (src/offline/tunnel): videos the page kept ahead of the viewer, whole at their lowest
// rendition, with their posters. Answered from the device before anything else, online too: their files
// never change under a URL, and the first frames of a kept video then cost no round trip. A kept master
// playlist is refreshed behind (it grows while a fresh upload's renditions finish). Ranges other than the
// whole file are cut from the kept copy: a browser's own HLS player asks for parts of a segment it already
// holds, and each must not cross the network again.
async function fromTunnel(request: Request, event: ExtendableEvent): Promise<Response | undefined> {
  const cache = await caches.open(CACHES.tunnel);
  const kept = await cache.match(request.url, { ignoreSearch: true });
  if (!kept) return undefined;
  const range = request.headers.get('range');
  if (range && !/^bytes=0-$/.test(range)) return createPartialResponse(request, kept);
  if (request.url.endsWith('/master.m3u8')) {
    event.waitUntil(
      fetch(request.url, { credentials: 'same-origin' })
        .then((fresh) => (fresh.status === 200 ? cache.put(request.url, fresh) : undefined))
        .catch(() => undefined),
    );
  }
  return kept;
}

// Thumbnails, avatars and covers: their URLs change when the picture does (uploads get a new name), so
// cache-first is safe. Bounded, and emptied first when the device runs out of space.
const images = new CacheFirst({
  cacheName: CACHES.images,
  plugins: [
    cacheable(false),
    new ExpirationPlugin({ maxEntries: 400, maxAgeSeconds: 7 * 24 * 3600, purgeOnQuotaError: true }),
  ],
});
registerRoute(
  ({ url }) => isMediaImage(url),
  async (options) => (await fromTunnel(options.request, options.event)) ?? images.handle(options),
);

// Discover: shown at once from the cache (also offline), refreshed behind it; the server's ETag makes
// the refresh a 304 when nothing changed.
const discover = new StaleWhileRevalidate({
  cacheName: CACHES.discover,
  plugins: [
    withoutGuestId,
    cacheable(false),
    new ExpirationPlugin({ maxEntries: 8, maxAgeSeconds: 7 * 24 * 3600, purgeOnQuotaError: true }),
  ],
});
const isDiscover = (url: URL) => url.origin === self.location.origin && url.pathname === '/v1/discover';
registerRoute(({ url, request }) => request.method === 'GET' && isDiscover(url), discover);

// The start of every video played here: its playlists and first two segments (4 s, what a player needs for
// its first frame). A return visit usually opens on a video seen before (the feed's first page, the one
// after it), and then shows its first frame from the device instead of three round trips away (issue 17: at
// most 0.5 s with a warm worker). Chromium's own HLS player asks with range requests, which never use the HTTP
// cache (measured), so this cache is the only place such a copy can come from. Nothing is fetched for it
// that the player did not ask for. Segments and media playlists keep their paths for the life of a
// transcode; a master playlist grows while a fresh upload's renditions finish, so it is refreshed behind.
const VIDEO_START = /^\/media\/videos\/[^/]+\/(?:master\.m3u8|[^/]+\/(?:index\.m3u8|seg_00[01]\.ts))$/;
const isVideoStart = (url: URL) => url.origin === self.location.origin && VIDEO_START.test(url.pathname);
// About 30 videos (master, a media playlist or two, two segments each: the player starts at the lowest
// rendition and may step up): some 12 MB at 270p and 540p, 60 MB if a fast network made it pick 1080p. The largest of the caches, so the first to go when the device runs short of
// space, whichever cache met the quota error.
const videoStartExpiration = new CacheExpiration(CACHES.videoStarts, {
  maxEntries: 200,
  maxAgeSeconds: 24 * 3600,
});
const dropVideoStarts = () => caches.delete(CACHES.videoStarts);
registerQuotaErrorCallback(dropVideoStarts);

async function videoStart({ request, event }: { request: Request; event: ExtendableEvent }) {
  const range = request.headers.get('range');
  // A range from the middle (a seek) goes to the network as asked: the start is what this cache is for.
  // (A 206 cut here from the cached copy was refused by Chromium's player, measured: the video was skipped.)
  if (range && !/^bytes=0-$/.test(range)) return fetch(request);
  const cache = await caches.open(CACHES.videoStarts);
  // The whole file, whatever the player asked for: a partial answer cannot be stored.
  const fetchWhole = async () => {
    const response = await fetch(request.url, { credentials: 'same-origin' });
    if (response.status !== 200) return { response, stored: Promise.resolve() };
    const stored = cache
      .put(request.url, response.clone())
      .then(() => videoStartExpiration.updateTimestamp(request.url))
      .then(() => videoStartExpiration.expireEntries())
      .catch((error: unknown) =>
        error instanceof DOMException && error.name === 'QuotaExceededError' ? dropVideoStarts() : undefined,
      );
    return { response, stored };
  };
  // The whole file answers `bytes=0-`, as the server's 200 does.
  const cached = await cache.match(request.url);
  if (cached) {
    if (request.url.endsWith('/master.m3u8')) event.waitUntil(fetchWhole().then(({ stored }) => stored));
    return cached;
  }
  const { response, stored } = await fetchWhole();
  event.waitUntil(stored);
  return response;
}
registerRoute(
  ({ url, request }) => request.method === 'GET' && isVideoStart(url),
  async (options) => (await fromTunnel(options.request, options.event)) ?? videoStart(options),
);
// The rest of a kept video (its later segments) comes from the tunnel too; anything else under /media/videos/
// goes to the network untouched.
registerRoute(
  ({ url, request }) =>
    request.method === 'GET' &&
    url.origin === self.location.origin &&
    url.pathname.startsWith('/media/videos/'),
  async ({ request, event }) => (await fromTunnel(request, event)) ?? fetch(request),
);

// Lists and profiles seen before (tag grids, profiles, category and site lists): from the
// network when it answers within a few seconds, else the last copy on the device, marked with
// OFFLINE_COPY_HEADER so the app says it is offline instead of showing an error. A signed-in viewer's copies
// are kept under a key of their own (a hash of the token), so the next person on the device never sees them.
// Not the feeds' own pages (/v1/videos, /v1/videos/start/…): offline, a feed plays the videos kept on the
// device instead (src/offline/tunnel), as a saved page's other videos could not play; and the home feed's
// answer, raced by index.html's boot script, keeps its one hop.
const LIST_PATHS = [
  /^\/v1\/tags\/[^/]+\/videos(?:\/[^/]+)?$/,
  /^\/v1\/users\/[^/]+(?:\/videos)?$/,
  /^\/v1\/discover\/(?:category|webcam-site)\/[^/]+\/videos$/,
];
const isList = (url: URL) =>
  url.origin === self.location.origin && LIST_PATHS.some((p) => p.test(url.pathname));

async function identityKey(request: Request): Promise<string | null> {
  const auth = request.headers.get('authorization');
  if (!auth) return null;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(auth));
  return [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

const perViewer: WorkboxPlugin = {
  cacheKeyWillBeUsed: async ({ request }) => {
    const url = new URL(request.url);
    url.searchParams.delete('guest_id');
    const who = await identityKey(request);
    if (who) url.searchParams.set('__viewer', who);
    return url.href;
  },
};

const markedAsCopy: WorkboxPlugin = {
  // Called only when the answer comes from the cache: for NetworkFirst, when the network failed or was late.
  cachedResponseWillBeUsed: async ({ cachedResponse }) => {
    if (!cachedResponse) return null;
    const headers = new Headers(cachedResponse.headers);
    headers.set(OFFLINE_COPY_HEADER, '1');
    // The body below is already decoded: a Content-Encoding left on it would claim otherwise.
    headers.delete('content-encoding');
    headers.delete('content-length');
    return new Response(await cachedResponse.blob(), { status: cachedResponse.status, headers });
  },
};

const lists = new NetworkFirst({
  cacheName: CACHES.lists,
  // A link that drops every packet leaves a request hanging for minutes: the copy answers instead. Not
  // sooner: a slow link or a busy server must not get a stale copy, marked offline, for a list it was about
  // to answer (a refused connection, the usual offline, falls back at once).
  networkTimeoutSeconds: 8,
  plugins: [
    perViewer,
    cacheable(false),
    markedAsCopy,
    new ExpirationPlugin({ maxEntries: 120, maxAgeSeconds: 7 * 24 * 3600, purgeOnQuotaError: true }),
  ],
});
registerRoute(({ url, request }) => request.method === 'GET' && isList(url), lists);

// Country flags (spec: 48x36 from an external flag service) never change.
const FLAG_HOSTS = new Set(['flagcdn.com']);
const flags = new CacheFirst({
  cacheName: CACHES.flags,
  plugins: [
    cacheable(true),
    new ExpirationPlugin({ maxEntries: 120, maxAgeSeconds: 90 * 24 * 3600, purgeOnQuotaError: true }),
  ],
});
registerRoute(({ url }) => FLAG_HOSTS.has(url.hostname), flags);

self.addEventListener('activate', (event) => {
  const current = new Set<string>(Object.values(CACHES));
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith(CACHE_PREFIX) && !current.has(name))
            .map((name) => caches.delete(name)),
        ),
      ),
  );
});

// First install: take the open page at once, so what it shows on its very first visit (discover,
// thumbnails) is cached from then on. Updates still wait for the user (prompt flow): a waiting worker only
// activates on SKIP_WAITING, and the page reloads into it.
clientsClaim();

/** The strategy that caches a URL, for warming the caches with what the page loaded before we ran. */
function strategyFor(url: URL): Strategy | undefined {
  if (isMediaImage(url)) return images;
  if (isDiscover(url)) return discover;
  if (FLAG_HOSTS.has(url.hostname)) return flags;
  return undefined;
}

self.addEventListener('message', (event) => {
  const data = event.data as { type?: unknown; urls?: unknown } | null;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
  // Sent by the page on its first visit, once we control it: what it fetched before that went straight
  // to the network, so it is fetched again through the caches (mostly from the HTTP cache, no traffic).
  if (data?.type === 'WARM_CACHES' && Array.isArray(data.urls)) {
    const work = data.urls
      .filter((u): u is string => typeof u === 'string')
      .slice(0, 200)
      .map(async (href) => {
        const url = new URL(href, self.location.origin);
        // The first video played before we ran: its start, so the next visit opening on it plays from here.
        if (isVideoStart(url)) {
          await videoStart({ event, request: new Request(url.href) }).catch(() => undefined);
          return;
        }
        const strategy = strategyFor(url);
        if (!strategy) return;
        const mode = url.origin === self.location.origin ? 'same-origin' : 'no-cors';
        await strategy.handle({ event, request: new Request(url.href, { mode }) }).catch(() => undefined);
      });
    event.waitUntil(Promise.all(work));
  }
});

// Background Sync: connectivity is back. An open page replays its own outbox (it holds the user's token);
// with no page open, guests' entries are sent from here and users' wait for the next visit.
const sendAsGuest: OutboxSender = async (entry) => {
  if (entry.body.user_id !== undefined) return 'held';
  const guestId = await getGuestId();
  let response: Response;
  try {
    response = await fetch(`/v1/${entry.kind}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        'Idempotency-Key': entry.id,
      },
      body: JSON.stringify({ guest_id: guestId, ...entry.body }),
    });
  } catch {
    throw new SendError(0);
  }
  if (!response.ok) throw new SendError(response.status);
  return 'sent';
};

async function replayOutbox() {
  const pages = await self.clients.matchAll({ type: 'window' });
  if (pages.length > 0) {
    for (const page of pages) page.postMessage({ type: OUTBOX_SYNC_MESSAGE });
    return;
  }
  await flush(Date.now, sendAsGuest);
  // Still waiting (server down, or a user's entries): failing the event makes the browser retry later.
  if ((await pending()).some((e) => e.body.user_id === undefined)) throw new Error('outbox not empty');
}

self.addEventListener('sync', (event) => {
  const sync = event as Event & { tag: string; waitUntil(promise: Promise<unknown>): void };
  if (sync.tag === OUTBOX_SYNC_TAG) sync.waitUntil(replayOutbox());
});
