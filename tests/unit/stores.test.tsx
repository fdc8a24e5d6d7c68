// Every device store of issue 6 through its real code path (idb-keyval on fake-indexeddb, jotai stores),
// plus the app-wide atoms around them: toast, network, auth and the login wrapper.
import { act, render, screen } from '@testing-library/react';
import { clear } from 'idb-keyval';
import { createStore, Provider } from 'jotai';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

beforeEach(async () => {
  vi.resetModules();
  const kv = await import('../../src/offline/kv');
  kv.resetKvCachesForTests();
  await clear(kv.kv());
  localStorage.clear();
  sessionStorage.clear();
});

/** A fresh page load: new modules (new atoms, new caches) over the same IndexedDB. */
async function reload() {
  vi.resetModules();
  const kv = await import('../../src/offline/kv');
  kv.resetKvCachesForTests();
  const prefs = await import('../../src/state/preferences');
  const { hydratePersisted } = await import('../../src/state/persisted');
  const store = createStore();
  await hydratePersisted(store);
  return { prefs, store, kv };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('preferences and device stores', () => {
  it('start from the spec defaults on a new device', async () => {
    const { prefs, store } = await reload();
    expect(store.get(prefs.preferenceAutoscrollAtom)).toBe(false);
    expect(store.get(prefs.preferenceSelectedTagsAtom)).toEqual([]);
    // Spec §3: preferencesCategory defaults to 'm'.
    expect(store.get(prefs.preferencesCategoryAtom)).toBe('m');
    expect(store.get(prefs.likedVideosAtom)).toEqual([]);
    expect(store.get(prefs.tutorialStepAtom)).toBe(0);
    expect(store.get(prefs.isMutedAtom)).toBe(true);
    expect(store.get(prefs.currentVideoAtom)).toBeNull();
    expect(store.get(prefs.ageConfirmedAtom)).toBe(false);
  });

  it('hydrate every key before the first render of the next visit', async () => {
    const first = await reload();
    first.store.set(first.prefs.preferenceAutoscrollAtom, true);
    first.store.set(first.prefs.preferenceSelectedTagsAtom, [{ id: 2, name: 'retro' }]);
    first.store.set(first.prefs.preferencesCategoryAtom, 't');
    first.store.set(first.prefs.likedVideosAtom, (ids) => [...ids, 11, 12]);
    first.store.set(first.prefs.tutorialStepAtom, 1);
    first.store.set(first.prefs.isMutedAtom, false);
    first.store.set(first.prefs.currentVideoAtom, { id: 11, slug: 'eleven' });
    first.store.set(first.prefs.ageConfirmedAtom, true);
    await settle();

    // No subscription, no effect: hydratePersisted alone has filled the new store.
    const { prefs, store } = await reload();
    expect(store.get(prefs.preferenceAutoscrollAtom)).toBe(true);
    expect(store.get(prefs.preferenceSelectedTagsAtom)).toEqual([{ id: 2, name: 'retro' }]);
    expect(store.get(prefs.preferencesCategoryAtom)).toBe('t');
    expect(store.get(prefs.likedVideosAtom)).toEqual([11, 12]);
    expect(store.get(prefs.tutorialStepAtom)).toBe(1);
    expect(store.get(prefs.isMutedAtom)).toBe(false);
    expect(store.get(prefs.currentVideoAtom)).toEqual({ id: 11, slug: 'eleven' });
    expect(store.get(prefs.ageConfirmedAtom)).toBe(true);
  });

  it('toggle liked videos and clear the selection, as the feed and the tabs do', async () => {
    const { prefs, store } = await reload();
    store.set(prefs.likedVideosAtom, [4, 5]);
    store.set(prefs.likedVideosAtom, (ids) => ids.filter((id) => id !== 4));
    store.set(prefs.currentVideoAtom, { id: 5, slug: 'five' });
    store.set(prefs.currentVideoAtom, null);
    await settle();
    const again = await reload();
    expect(again.store.get(again.prefs.likedVideosAtom)).toEqual([5]);
    expect(again.store.get(again.prefs.currentVideoAtom)).toBeNull();
  });

  it('let a change made before hydration win over the stored value', async () => {
    const first = await reload();
    first.store.set(first.prefs.preferencesCategoryAtom, 't');
    await settle();
    vi.resetModules();
    const kv = await import('../../src/offline/kv');
    kv.resetKvCachesForTests();
    const prefs = await import('../../src/state/preferences');
    const { hydratePersisted } = await import('../../src/state/persisted');
    const store = createStore();
    store.set(prefs.preferencesCategoryAtom, 'm,t');
    await hydratePersisted(store);
    expect(store.get(prefs.preferencesCategoryAtom)).toBe('m,t');
    await settle();
    expect(await kv.readKv('preferencesCategory')).toBe('m,t');
  });

  it('keep working in memory when IndexedDB is unavailable (private mode, blocked storage)', async () => {
    const realIndexedDb = globalThis.indexedDB;
    vi.stubGlobal('indexedDB', undefined);
    try {
      const { prefs, store, kv } = await reload();
      expect(store.get(prefs.isMutedAtom)).toBe(true);
      store.set(prefs.isMutedAtom, false);
      expect(store.get(prefs.isMutedAtom)).toBe(false);
      await expect(kv.readKv('isMuted')).rejects.toBeTruthy();
      // A guest id still exists for this visit, only not kept.
      expect(await kv.getGuestId()).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      vi.stubGlobal('indexedDB', realIndexedDb);
    }
  });

  it('generate the guest id once, even when asked twice at the same time, and keep it', async () => {
    const { kv } = await reload();
    const [a, b] = await Promise.all([kv.getGuestId(), kv.getGuestId()]);
    expect(a).toBe(b);
    const again = await reload();
    expect(await again.kv.getGuestId()).toBe(a);
    expect(await again.kv.readKv('guestId')).toBe(a);
  });
});

describe('toasts', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stay 1.5 s for confirmations and 3 s for errors or when asked', async () => {
    vi.useFakeTimers();
    const { showToastAtom, toastAtom, TOAST_LONG_MS, TOAST_SHORT_MS } = await import('../../src/state/toast');
    const { ToastHost } = await import('../../src/ui/Toast');
    expect([TOAST_SHORT_MS, TOAST_LONG_MS]).toEqual([1500, 3000]);
    const store = createStore();
    render(
      <Provider store={store}>
        <ToastHost />
      </Provider>,
    );
    const region = screen.getByRole('status');

    act(() => store.set(showToastAtom, 'Link copied'));
    expect(region.textContent).toBe('Link copied');
    act(() => vi.advanceTimersByTime(1400));
    expect(region.textContent).toBe('Link copied');
    act(() => vi.advanceTimersByTime(200));
    expect(region.textContent).toBe('');

    act(() => store.set(showToastAtom, 'Report sent', { long: true }));
    act(() => vi.advanceTimersByTime(2900));
    expect(region.textContent).toBe('Report sent');
    act(() => vi.advanceTimersByTime(200));
    expect(store.get(toastAtom)).toBeNull();

    act(() => store.set(showToastAtom, 'Network error.', { tone: 'error' }));
    expect(store.get(toastAtom)?.durationMs).toBe(3000);
    // A new toast replaces the one on screen and gets its own full time.
    act(() => vi.advanceTimersByTime(2000));
    act(() => store.set(showToastAtom, 'Video rated'));
    act(() => vi.advanceTimersByTime(1400));
    expect(region.textContent).toBe('Video rated');
  });
});

describe('network', () => {
  it('follows the browser going offline and online', async () => {
    const { onlineAtom } = await import('../../src/state/network');
    const store = createStore();
    const seen: boolean[] = [];
    const unsubscribe = store.sub(onlineAtom, () => seen.push(store.get(onlineAtom)));
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    unsubscribe();
    onLine.mockRestore();
    expect(seen).toEqual([false, true]);
  });
});

describe('auth', () => {
  const auth = { accessToken: 'token-1', userId: 7, userType: 'user' as const };

  it('keeps the token with remember me in localStorage, else only for the session', async () => {
    const { readAuth, saveAuth } = await import('../../src/state/auth');
    saveAuth(auth, true);
    expect(JSON.parse(localStorage.getItem('shortcams.auth') ?? 'null')).toEqual(auth);
    expect(sessionStorage.getItem('shortcams.auth')).toBeNull();
    saveAuth({ ...auth, accessToken: 'token-2' }, false);
    expect(localStorage.getItem('shortcams.auth')).toBeNull();
    expect(readAuth()?.accessToken).toBe('token-2');
  });

  it('logout clears token and user id and reloads the app', async () => {
    const { logout, readAuth, saveAuth } = await import('../../src/state/auth');
    saveAuth(auth, true);
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    logout();
    expect(readAuth()).toBeNull();
    expect(localStorage.getItem('shortcams.auth')).toBeNull();
    expect(assign).toHaveBeenCalledWith('/');
    assign.mockRestore();
  });

  it('the login wrapper lets members in, sends guests to /login, or shows a guest screen', async () => {
    const { RequireAuth } = await import('../../src/app/RequireAuth');
    const { authAtom } = await import('../../src/state/auth');
    const store = createStore();
    const router = createMemoryRouter(
      [
        { path: '/login', element: <p>Login screen</p> },
        { path: '/account', element: <RequireAuth>Account screen</RequireAuth> },
        { path: '/upload', element: <RequireAuth guest={<p>Creator promo</p>}>Upload screen</RequireAuth> },
      ],
      { initialEntries: ['/account'] },
    );
    render(
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>,
    );
    expect(await screen.findByText('Login screen')).toBeTruthy();
    await act(() => router.navigate('/upload'));
    expect(screen.getByText('Creator promo')).toBeTruthy();
    act(() => store.set(authAtom, auth));
    expect(screen.getByText('Upload screen')).toBeTruthy();
    await act(() => router.navigate('/account'));
    expect(screen.getByText('Account screen')).toBeTruthy();
  });
});
