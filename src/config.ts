// Outbound destinations, set per deployment at build time (VITE_*), with placeholders for development.
// Shared by the app frame and the features (help screen), so it lives beside them rather than in src/app.
const env = import.meta.env;

/** Partner page of the Live Cams button and menu entry (spec §1: revenue comes from these clicks). */
export const LIVE_CAMS_URL: string = env.VITE_LIVE_CAMS_URL ?? 'https://example.com/live';
export const WEBCAM_REVIEWS_URL: string = env.VITE_WEBCAM_REVIEWS_URL ?? 'https://example.com/webcam-reviews';
/** The product's social account, linked from the menu footer. */
export const SOCIAL_URL: string = env.VITE_SOCIAL_URL ?? 'https://x.com/shortcams';
/** Support channels of /account/help (spec §2: Discord, WhatsApp and email support buttons). */
export const DISCORD_URL: string = env.VITE_DISCORD_URL ?? 'https://discord.gg/shortcams';
export const WHATSAPP_URL: string = env.VITE_WHATSAPP_URL ?? 'https://wa.me/15550100000';
export const SUPPORT_EMAIL: string = env.VITE_SUPPORT_EMAIL ?? 'support@shortcams.local';
/** Where the adult-content rating label links, as the RTA asks of sites that carry it. */
export const RTA_URL = 'https://www.rtalabel.org/';
/** Where someone under 18 is sent from the age gate. */
export const LEAVE_URL = 'https://www.google.com/';
/** Shown in the menu footer; a new build with another version also proves the update flow (e2e). */
export const APP_VERSION: string = __APP_VERSION__;
