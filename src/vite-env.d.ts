/// <reference types="vite-plugin-pwa/vanillajs" />

interface ImportMetaEnv {
  /** Partner page the floating "Live Cams" button opens. */
  readonly VITE_LIVE_CAMS_URL?: string;
  /** "Webcam Reviews" menu entry. */
  readonly VITE_WEBCAM_REVIEWS_URL?: string;
  /** Social link in the menu footer. */
  readonly VITE_SOCIAL_URL?: string;
}

/** package.json version, or APP_VERSION at build time (vite.config.ts). */
declare const __APP_VERSION__: string;
