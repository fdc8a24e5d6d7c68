import { Provider } from 'jotai';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { discoverGender, prefetchDiscover } from './api/discover';
import { prefetchFeedPage } from './api/videos';
import { ErrorBoundary } from './app/RouteError';
import { AppRoutes, opensOnFeed, preloadEntryScreen } from './app/router';
import { applyAppStyles } from './app/styles';
import { homeQuery } from './features/feed/sources';
import { startOutbox } from './offline/sync';
import { readAuth } from './state/auth';
import { afterFirstVideo } from './state/firstVideo';
import { listenForInstallPrompt } from './state/install';
import { hydratePersisted } from './state/persisted';
import { preferenceSelectedTagsAtom, preferencesCategoryAtom } from './state/preferences';
import { appStore } from './state/store';
import { swUpdateAtom } from './state/sw';
import './app/app.css';

listenForInstallPrompt(appStore);

const entryScreen = preloadEntryScreen(window.location.pathname);

// index.html only preloads the app's stylesheets, so the splash paints without waiting for them.
const styled = applyAppStyles();

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');

// The device's preferences first (a few ms of IndexedDB), so no screen renders with defaults and then flips.
await hydratePersisted(appStore).catch(() => undefined);

// The first screen's data is asked for now, beside the screen's code, not after the first render asks.
// Discover's answer, when index.html's script already has it, is given a moment (50 ms at most) to be read
// and checked, so the first commit is the screen rather than its skeleton and a second commit.
let firstData: Promise<unknown> = Promise.resolve();
if (window.location.pathname === '/discover') {
  const answer = prefetchDiscover(discoverGender(appStore.get(preferencesCategoryAtom)));
  firstData = Promise.race([
    answer.catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, 50)),
  ]);
}
if (window.location.pathname === '/') {
  const query = homeQuery(appStore.get(preferencesCategoryAtom), appStore.get(preferenceSelectedTagsAtom));
  prefetchFeedPage(`/v1/videos${query ? `?${query}` : ''}`);
}

// A transition, so React renders the first screen in slices of a few ms and yields between them instead of
// one long task. The commit, the module evaluation before it and the renders after data arrives are still
// long tasks (see the blocking figure of `npm run bench -- PWA`). The splash in index.html stays until the
// whole first screen commits, so nothing half-drawn shows.
await Promise.all([styled, entryScreen, firstData]);
const reactRoot = createRoot(root);
startTransition(() => {
  reactRoot.render(
    <StrictMode>
      <Provider store={appStore}>
        <BrowserRouter>
          <ErrorBoundary>
            <AppRoutes />
          </ErrorBoundary>
        </BrowserRouter>
      </Provider>
    </StrictMode>,
  );
});

// Whatever was liked or viewed offline last time goes out now, and again whenever the network returns.
startOutbox();

// An upload left unfinished (a reload, a closed browser) carries on wherever the app opens: for signed-in
// people, after the first render, through a small module; the queue and tus-js-client load only if one waits.
if (readAuth()) {
  setTimeout(() => {
    void import('./offline/uploads/resume').then((m) => m.resumeUploads()).catch(() => undefined);
  }, 500);
}

// In development a service worker would serve stale modules over Vite's; it only exists in builds.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  // First visit: the worker takes this page over once installed (clientsClaim), but what the page fetched
  // before went past it. Hand it the list so discover and thumbnails are in its caches for the next,
  // possibly offline, visit. On later visits a controller exists from the start and this never runs.
  if (!navigator.serviceWorker.controller) {
    navigator.serviceWorker.addEventListener(
      'controllerchange',
      () => {
        const urls = performance.getEntriesByType('resource').map((entry) => entry.name);
        navigator.serviceWorker.controller?.postMessage({ type: 'WARM_CACHES', urls });
      },
      { once: true },
    );
  }
  // Installing the worker downloads the whole precache (about 250 KB): on a feed that waits until the first
  // video shows a frame (10 s at most), which on Slow 4G is seconds of bandwidth the first video no longer
  // shares (issue 17).
  void afterFirstVideo(opensOnFeed(window.location.pathname) ? undefined : 0)
    .then(() => import('virtual:pwa-register'))
    .then(({ registerSW }) => {
      const updateSW = registerSW({
        // Prompt flow: the waiting worker only takes over when the user agrees, never mid-video. The outer arrow
        // is jotai's updater form, needed because the stored value is itself a function.
        onNeedRefresh: () => appStore.set(swUpdateAtom, () => () => updateSW(true)),
      });
    });
}
