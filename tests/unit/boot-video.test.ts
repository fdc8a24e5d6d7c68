// The home feed's first video, started by index.html's boot script in an element of its own, is handed to
// the feed's first slot only for the very source that slot plays; anything else stops its download.
import { afterEach, describe, expect, it } from 'vitest';
import { takeBootVideo } from '../../src/api/boot';

const PLAYLIST = '/media/videos/1-abc/master.m3u8';

function bootVideo(src: string) {
  const video = document.createElement('video');
  video.setAttribute('src', src);
  window.__shortcamsBootVideo = video;
  return video;
}

afterEach(() => {
  window.__shortcamsBootVideo = undefined;
});

describe('takeBootVideo', () => {
  it('hands the element over once, for the source it is loading', () => {
    const video = bootVideo(PLAYLIST);
    expect(takeBootVideo(PLAYLIST)).toBe(video);
    expect(video.getAttribute('src')).toBe(PLAYLIST);
    // Taken: the boot script, were it still to answer, must not start another.
    expect(window.__shortcamsBootVideo).toBeNull();
    expect(takeBootVideo(PLAYLIST)).toBeUndefined();
  });

  it('stops an element loading another video than the one the feed shows first', () => {
    const video = bootVideo(PLAYLIST);
    expect(takeBootVideo('/media/videos/2-def/master.m3u8')).toBeUndefined();
    expect(video.hasAttribute('src')).toBe(false);
  });

  it('stops it when the first slot plays no video of its own (an ad, an empty slot)', () => {
    const video = bootVideo(PLAYLIST);
    expect(takeBootVideo(null)).toBeUndefined();
    expect(video.hasAttribute('src')).toBe(false);
  });

  it('tells a boot script that answers late that the feed has started without it', () => {
    expect(takeBootVideo(PLAYLIST)).toBeUndefined();
    expect(window.__shortcamsBootVideo).toBeNull();
  });
});
