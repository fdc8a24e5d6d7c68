import type Hls from 'hls.js';
import { type RefObject, useEffect, useEffectEvent } from 'react';

const HLS_MIME = 'application/vnd.apple.mpegurl';

/**
 * Points the <video> at `src` and starts it. HLS plays natively where the browser can (Safari, iOS);
 * elsewhere hls.js is fetched on demand, so native-HLS users never download it. `onFail` covers a
 * missing hls.js chunk (offline) and fatal stream errors alike.
 */
export function useVideoSource(
  ref: RefObject<HTMLVideoElement | null>,
  src: string | null,
  onFail: () => void,
) {
  const fail = useEffectEvent(onFail);
  useEffect(() => {
    const video = ref.current;
    if (!video || !src) return;
    let hls: Hls | undefined;
    let cancelled = false;
    // Autoplay may be refused (power saving, no user gesture yet); the paused state then shows a play button.
    const start = () => void video.play().catch(() => undefined);

    const isPlaylist = /\.m3u8(?:$|[?#])/i.test(src);
    if (!isPlaylist || video.canPlayType(HLS_MIME) !== '') {
      video.src = src;
      start();
    } else {
      import('hls.js').then(
        ({ default: HlsPlayer }) => {
          if (cancelled) return;
          if (!HlsPlayer.isSupported()) {
            fail();
            return;
          }
          // Spec §9: keep about 30 s of video buffered, no more, to spare mobile data.
          hls = new HlsPlayer({ maxBufferLength: 30 });
          hls.on(HlsPlayer.Events.ERROR, (_event, data) => {
            if (data.fatal) fail();
          });
          hls.loadSource(src);
          hls.attachMedia(video);
          start();
        },
        () => {
          if (!cancelled) fail();
        },
      );
    }

    return () => {
      cancelled = true;
      hls?.destroy();
      video.removeAttribute('src');
      // Releases the network connection and decoder the old source still holds.
      video.load();
    };
  }, [ref, src]);
}
