import { atom, type createStore } from 'jotai';

/** Chromium's install prompt event (not in TypeScript's DOM library). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/** Set while the browser offers to install the app; the menu then shows "Install app". */
export const installPromptAtom = atom<BeforeInstallPromptEvent | null>(null);

/** Running as the installed app (home-screen icon), where no install offer makes sense. */
export const isStandalone = () =>
  window.matchMedia?.('(display-mode: standalone)').matches === true ||
  (navigator as Navigator & { standalone?: boolean }).standalone === true;

/** iPhone and iPad Safari have no install prompt: the menu explains Share, then Add to Home Screen. */
export const isIos = () =>
  /iphone|ipad|ipod/i.test(navigator.userAgent) ||
  // iPadOS reports itself as a Mac; only its touch screen tells it apart.
  (navigator.userAgent.includes('Macintosh') && navigator.maxTouchPoints > 1);

/**
 * Listens from the very start: Chromium fires beforeinstallprompt once, possibly before React mounts.
 * The default mini-infobar is suppressed so that installing is offered where the user looks for it.
 */
export function listenForInstallPrompt(store: ReturnType<typeof createStore>) {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    store.set(installPromptAtom, event as BeforeInstallPromptEvent);
  });
  window.addEventListener('appinstalled', () => store.set(installPromptAtom, null));
}
