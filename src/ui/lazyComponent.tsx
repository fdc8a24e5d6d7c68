import { type ComponentType, lazy } from 'react';

/** A screen or sheet in its own chunk, which renders at once when its module is already in. */
export type LazyComponent<P extends object> = ComponentType<P> & {
  /** Starts the download; resolves when the screen can render without suspending. */
  preload: () => Promise<ComponentType<P>>;
  /** Whether its module is in: it renders in the commit that asks for it, without suspending. */
  ready: () => boolean;
};

/**
 * React.lazy suspends on its first render even when the module has long arrived: the Suspense fallback
 * commits first, and React then holds the screen back until 500 ms after that fallback (its
 * FALLBACK_THROTTLE_MS; 300 ms in React 19). On `/` that was 265 ms between the feed's answer and the first
 * video's request (issue 17). A component made here renders the module directly once it is in: main.tsx
 * preloads the entry screen before the first render, so the first commit is the screen itself, and the feed
 * preloads its sheets, so the rating prompt opens in the commit that asks for it.
 */
export function lazyComponent<P extends object = object>(
  load: () => Promise<ComponentType<P>>,
): LazyComponent<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load().then(
      (screen) => {
        loaded = screen;
        return screen;
      },
      (error: unknown) => {
        // A chunk that failed (offline, a deploy in between) may load on the next attempt.
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(() => preload().then((screen) => ({ default: screen })));
  const Screen = (props: P) => {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  };
  return Object.assign(Screen, { preload, ready: () => loaded !== undefined });
}
