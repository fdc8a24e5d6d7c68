import { describe, expect, it } from 'vitest';
import { demoClipArgs, h264Args, masterPlaylist, stillImageArgs } from '../../server/media/args';
import { demoClip } from '../../server/media/demo';
import { demoPattern, demoSeconds } from '../../server/seed/patterns';

const flag = (args: string[], name: string) => args[args.indexOf(name) + 1];

describe('ffmpeg argument builders', () => {
  it('keyframes every 2 s at the clip frame rate, without scene-cut keyframes', () => {
    const args = h264Args({ width: 540, height: 960, maxrateKbps: 1500 }, 30);
    expect(flag(args, '-g')).toBe('60');
    expect(flag(args, '-keyint_min')).toBe('60');
    expect(flag(args, '-sc_threshold')).toBe('0');
    expect(flag(args, '-maxrate')).toBe('1500k');
    expect(flag(args, '-bufsize')).toBe('3000k');
  });

  it('bounds both generated inputs and strips metadata from the HLS output', () => {
    const clip = demoClip(3);
    const args = demoClipArgs(clip, { playlist: 'p.m3u8', segmentPattern: 's_%03d.ts', thumbnail: 't.jpg' });
    const inputs = args.flatMap((a, i) => (a === '-i' ? [i] : []));
    expect(inputs).toHaveLength(2);
    for (const i of inputs) expect(args.slice(i - 4, i)).toEqual(['-t', String(clip.seconds), '-f', 'lavfi']);
    expect(flag(args, '-map_metadata')).toBe('-1');
    expect(flag(args, '-hls_time')).toBe('2');
    expect(flag(args, '-hls_playlist_type')).toBe('vod');
    expect(args.at(-1)).toBe('t.jpg');
  });

  it('gives every demo clip its own pattern and a length of 5 to 15 s', () => {
    const sources = new Set(Array.from({ length: 24 }, (_, i) => demoPattern(i).source));
    expect(sources.size).toBe(24);
    for (let i = 0; i < 24; i++) {
      expect(demoSeconds(i)).toBeGreaterThanOrEqual(5);
      expect(demoSeconds(i)).toBeLessThanOrEqual(15);
    }
  });

  it('writes a master playlist with bandwidth, resolution and codecs', () => {
    const text = masterPlaylist([
      { uri: '540p/index.m3u8', rendition: { width: 540, height: 960, maxrateKbps: 1500 }, audioKbps: 96 },
    ]);
    expect(text).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n' +
        '#EXT-X-STREAM-INF:BANDWIDTH=1596000,RESOLUTION=540x960,CODECS="avc1.4d401f,mp4a.40.2"\n540p/index.m3u8\n',
    );
  });

  it('scales stills to the requested size', () => {
    expect(flag(stillImageArgs('color=c=red', 256, 256, 'a.jpg'), '-vf')).toBe(
      'scale=256:256:flags=bicubic,setsar=1',
    );
  });
});
