/**
 * Applies the stylesheets index.html only preloads (vite.config.ts, paintFirst) and resolves once they
 * are in, so the first render is never unstyled. In development there are none: Vite injects styles itself.
 */
export function applyAppStyles(): Promise<void> {
  const links = [...document.querySelectorAll<HTMLLinkElement>('link[data-app-style]')];
  return Promise.all(
    links.map(
      (link) =>
        new Promise<void>((resolve) => {
          link.addEventListener('load', () => resolve(), { once: true });
          // A stylesheet that fails to load leaves the app plainer, not unable to start.
          link.addEventListener('error', () => resolve(), { once: true });
          link.rel = 'stylesheet';
        }),
    ),
  ).then(() => undefined);
}
