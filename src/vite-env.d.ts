/// <reference types="vite-plugin-pwa/vanillajs" />

interface ImportMetaEnv {
  /** Partner page the floating "Live Cams" button opens. */
  readonly VITE_LIVE_CAMS_URL?: string;
}
