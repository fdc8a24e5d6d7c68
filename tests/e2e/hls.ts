import type { Page } from 'playwright/test';

/**
 * Native HLS hidden, as in browsers without it (Firefox, older Chrome on Android): the feed's slots are fed
 * by hls.js (MediaSource), and the app's own fetches of playlists and segments are for hls.js.
 */
export const hideNativeHls = (page: Page) =>
  page.addInitScript(() => {
    const canPlayType = HTMLMediaElement.prototype.canPlayType;
    HTMLMediaElement.prototype.canPlayType = function (type: string) {
      return /mpegurl/i.test(type) ? '' : canPlayType.call(this, type);
    };
  });
