// The setting "Keep videos for offline" against what the browser says about the link. Small and loaded with
// the feed (the next slot's preload asks it); the rest of the buffer loads later.
import type { KvSchema } from '../kv';

/** What the browser tells about the connection (the Network Information API, where there is one). */
export function connectionInfo(): LinkInfo {
  const connection = (navigator as Navigator & { connection?: LinkInfo }).connection;
  return { type: connection?.type, saveData: connection?.saveData };
}

export type KeepSetting = NonNullable<KvSchema['keepOffline']>;

/** What the browser says about the link; every field may be missing (Firefox, Safari). */
export interface LinkInfo {
  type?: string;
  saveData?: boolean;
}

/**
 * The setting's default: "On Wi-Fi" where the browser tells the connection type (Android Chrome), else
 * "Always" (a laptop's Chromium, Safari and Firefox never say, and they are rarely on a metered link).
 */
export const defaultKeepSetting = (link: LinkInfo): KeepSetting => (link.type ? 'wifi' : 'always');

/** Whether the buffer may fetch now. Save-Data always pauses it: the viewer asked their browser to spare data. */
export function mayKeep(setting: KeepSetting, link: LinkInfo): boolean {
  if (setting === 'never' || link.saveData) return false;
  if (setting === 'always') return true;
  // "On Wi-Fi" with no type reported cannot be told from cellular; such browsers are on laptops, where
  // the viewer expects the setting to keep videos rather than to do nothing.
  return link.type === undefined || link.type === 'wifi' || link.type === 'ethernet';
}
