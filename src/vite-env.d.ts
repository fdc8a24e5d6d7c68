/// <reference types="vite-plugin-pwa/vanillajs" />

interface ImportMetaEnv {
  /** Partner page the floating "Live Cams" button opens. */
  readonly VITE_LIVE_CAMS_URL?: string;
  /** "Webcam Reviews" menu entry. */
  readonly VITE_WEBCAM_REVIEWS_URL?: string;
  /** Social link in the menu footer. */
  readonly VITE_SOCIAL_URL?: string;
  /** Discord invite of the help screen's support button. */
  readonly VITE_DISCORD_URL?: string;
  /** WhatsApp chat link (https://wa.me/<number>) of the help screen's support button. */
  readonly VITE_WHATSAPP_URL?: string;
  /** Address the help screen's email support button writes to. */
  readonly VITE_SUPPORT_EMAIL?: string;
}

/** package.json version, or APP_VERSION at build time (vite.config.ts). */
declare const __APP_VERSION__: string;
