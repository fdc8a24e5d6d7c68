import { describe, expect, it } from 'vitest';
import {
  codecsOf,
  demoClipArgs,
  fitWithin,
  frameArgs,
  h264Args,
  h264Level,
  ladderArgs,
  ladderFor,
  masterPlaylist,
  outputFps,
  playlistSeconds,
  progressiveMp4Args,
  renditionName,
  renditionOutput,
  stillImageArgs,
  tailScanArgs,
  tileArgs,
} from '../../server/media/args';
import { DEMO_LADDER, demoClip } from '../../server/media/demo';
import { demoPattern, demoSeconds } from '../../server/media/patterns';
import { MediaRejection, readProbe } from '../../server/media/probe';

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
    const args = demoClipArgs(clip, { dir: 'd', thumbnail: 't.jpg' });
    const inputs = args.flatMap((a, i) => (a === '-i' ? [i] : []));
    expect(inputs).toHaveLength(2);
    for (const i of inputs) expect(args.slice(i - 4, i)).toEqual(['-t', String(clip.seconds), '-f', 'lavfi']);
    expect(flag(args, '-map_metadata')).toBe('-1');
    expect(flag(args, '-hls_time')).toBe('2');
    expect(flag(args, '-hls_playlist_type')).toBe('vod');
    expect(args.at(-1)).toBe('t.jpg');
  });

  it('encodes every demo clip to a 270p and a 540p rendition in one run, lowest first', () => {
    const clip = demoClip(0);
    expect(clip.renditions).toBe(DEMO_LADDER);
    expect(DEMO_LADDER).toEqual([
      { width: 270, height: 480, maxrateKbps: 400 },
      { width: 540, height: 960, maxrateKbps: 1500 },
    ]);
    const args = demoClipArgs(clip, { dir: 'd', thumbnail: 't.jpg' });
    // One input of each kind: the pattern is generated once and split, not once per rendition.
    expect(args.filter((a) => a === '-i')).toHaveLength(2);
    expect(flag(args, '-filter_complex')).toBe(
      '[0:v]scale=540:960:flags=bicubic,setsar=1,format=yuv420p,split=3[s0][s1][t];' +
        '[s0]scale=270:480:flags=area,setsar=1,format=yuv420p[v0];' +
        '[s1]scale=540:960:flags=area,setsar=1,format=yuv420p[v1];' +
        '[t]select=eq(n\\,30)[thumb];' +
        `[1:a]volume=0.12,afade=t=in:d=0.5,afade=t=out:st=${(clip.seconds - 0.5).toFixed(2)}:d=0.5,asplit=2[a0][a1]`,
    );
    // Each output has its own video, audio, encoder and muxer, the lowest first; the poster last.
    expect(args.filter((_, i) => args[i - 1] === '-map')).toEqual([
      '[v0]',
      '[a0]',
      '[v1]',
      '[a1]',
      '[thumb]',
    ]);
    expect(args.filter((_, i) => args[i - 1] === '-maxrate')).toEqual(['400k', '1500k']);
    expect(args.filter((_, i) => args[i - 1] === '-level:v')).toEqual(['3.0', '3.1']);
    expect(args.filter((a) => a === 'libx264')).toHaveLength(2);
    expect(args.filter((_, i) => args[i - 1] === '-hls_segment_filename')).toEqual([
      'd/270p/seg_%03d.ts',
      'd/540p/seg_%03d.ts',
    ]);
    expect(args.filter((a) => a.endsWith('.m3u8'))).toEqual(['d/270p/index.m3u8', 'd/540p/index.m3u8']);
    expect(renditionOutput('d', { width: 270, height: 480, maxrateKbps: 400 })).toEqual({
      rendition: { width: 270, height: 480, maxrateKbps: 400 },
      playlist: 'd/270p/index.m3u8',
      segmentPattern: 'd/270p/seg_%03d.ts',
    });
    // A clip without renditions is a mistake, not an ffmpeg run without outputs.
    expect(() => demoClipArgs({ ...clip, renditions: [] }, { dir: 'd', thumbnail: 't.jpg' })).toThrow();
  });

  it("lists the demo ladder's variants lowest first, each with its own bandwidth, size and level", () => {
    const text = masterPlaylist(
      DEMO_LADDER.map((rendition) => ({
        uri: `${renditionName(rendition)}/index.m3u8`,
        rendition,
        audioKbps: 96,
      })),
    );
    expect(text).toBe(
      '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n' +
        '#EXT-X-STREAM-INF:BANDWIDTH=496000,RESOLUTION=270x480,CODECS="avc1.4d401e,mp4a.40.2"\n270p/index.m3u8\n' +
        '#EXT-X-STREAM-INF:BANDWIDTH=1596000,RESOLUTION=540x960,CODECS="avc1.4d401f,mp4a.40.2"\n540p/index.m3u8\n',
    );
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

describe('upload ladder and probe (pure)', () => {
  it('ladders a vertical source up to its own size, never upscaling, keeping its aspect ratio', () => {
    const names = (w: number, h: number) =>
      ladderFor({ width: w, height: h }).map((r) => `${r.width}x${r.height}`);
    expect(names(1080, 1920)).toEqual(['360x640', '540x960', '720x1280', '1080x1920']);
    expect(names(2160, 3840)).toEqual(['360x640', '540x960', '720x1280', '1080x1920']);
    expect(names(720, 1280)).toEqual(['360x640', '540x960', '720x1280']);
    // Between steps: the steps below, nothing made up.
    expect(names(600, 1066)).toEqual(['360x640', '540x960']);
    // Landscape is laddered by its short side too.
    expect(names(1920, 1080)).toEqual(['640x360', '960x540', '1280x720', '1920x1080']);
    // 3:4 and square keep their shape.
    expect(names(1080, 1440)).toEqual(['360x480', '540x720', '720x960', '1080x1440']);
    // Smaller than the first step: one rendition at its own (even) size.
    expect(names(181, 321)).toEqual(['182x322']);
    expect(ladderFor({ width: 1080, height: 1920 }).map((r) => r.maxrateKbps)).toEqual([
      800, 1500, 2800, 5000,
    ]);
    expect(renditionName({ width: 540, height: 960 })).toBe('540p');
  });

  it('states the H.264 level each rendition needs, and the playlist CODECS match it', () => {
    const at30 = (width: number, height: number, maxrateKbps = 800) =>
      h264Level({ width, height, maxrateKbps }, 30);
    expect([at30(360, 640), at30(540, 960), at30(720, 1280), at30(1080, 1920)]).toEqual([30, 31, 31, 40]);
    expect(at30(1080, 1920, 30_000)).toBe(41);
    expect(codecsOf({ width: 1080, height: 1920, maxrateKbps: 5000 }, 30)).toBe('avc1.4d4028,mp4a.40.2');
    const args = h264Args({ width: 360, height: 640, maxrateKbps: 800 }, 30);
    expect(flag(args, '-level:v')).toBe('3.0');
  });

  it('picks whole frame rates up to 30 and posters that fit without upscaling', () => {
    expect([
      outputFps(29.97),
      outputFps(23.976),
      outputFps(60),
      outputFps(59.94),
      outputFps(48),
      outputFps(0),
    ]).toEqual([30, 24, 30, 30, 24, 30]);
    expect(outputFps(Number.NaN)).toBe(30);
    expect(fitWithin({ width: 1080, height: 1920 }, 960)).toEqual({ width: 540, height: 960 });
    expect(fitWithin({ width: 180, height: 320 }, 960)).toEqual({ width: 180, height: 320 });
  });

  it('builds the ladder in one run: decode once, split, one encoder and HLS output per rendition', () => {
    const renditions = ladderFor({ width: 540, height: 960 });
    const args = ladderArgs({
      input: 'src',
      durationSeconds: 12.5,
      hasAudio: false,
      fps: 30,
      outputs: renditions.map((rendition) => ({
        rendition,
        playlist: `${renditionName(rendition)}/index.m3u8`,
        segmentPattern: `${renditionName(rendition)}/seg_%03d.ts`,
      })),
    });
    expect(args.filter((a) => a === '-i')).toHaveLength(2);
    expect(args.slice(args.indexOf('anullsrc=channel_layout=stereo:sample_rate=44100') - 4)).toEqual(
      expect.arrayContaining(['-f', 'lavfi', '-t', '12.500']),
    );
    expect(flag(args, '-filter_complex')).toBe(
      '[0:v:0]fps=30,split=2[s0][s1];[s0]scale=360:640:flags=bicubic,setsar=1,format=yuv420p[v0];' +
        '[s1]scale=540:960:flags=bicubic,setsar=1,format=yuv420p[v1]',
    );
    expect(args.filter((a) => a === '1:a:0')).toHaveLength(2);
    expect(args.filter((a) => a === 'hls')).toHaveLength(2);
    expect(args.filter((a) => a === '-map_metadata')).toHaveLength(2);
    expect(args.filter((a) => a === 'libx264')).toHaveLength(2);
    expect(args.at(-1)).toBe('540p/index.m3u8');
    const withAudio = ladderArgs({ input: 'src', durationSeconds: 1, hasAudio: true, fps: 25, outputs: [] });
    expect(withAudio.filter((a) => a === '-i')).toHaveLength(1);
  });

  it('seeks before decoding for a frame, reads only packets for the tail, copies for the MP4', () => {
    const frame = frameArgs('in', { atSeconds: 1, size: { width: 540, height: 960 }, output: 'o.jpg' });
    expect(frame.indexOf('-ss')).toBeLessThan(frame.indexOf('-i'));
    expect(flag(frame, '-frames:v')).toBe('1');
    expect(flag(frame, '-map_metadata')).toBe('-1');
    expect(frameArgs('in', { atSeconds: 0, size: { width: 2, height: 2 }, output: 'o.jpg' })).not.toContain(
      '-ss',
    );
    expect(flag(tailScanArgs('in', 17), '-read_intervals')).toBe('17.000%+86400');
    // The grid tile: scaled by area averaging, stripped, compressed harder than the full-screen poster.
    const tile = tileArgs('thumb.jpg', { width: 270, height: 480 }, 'tile.jpg');
    expect(flag(tile, '-vf')).toBe('scale=270:480:flags=area,setsar=1');
    expect(flag(tile, '-map_metadata')).toBe('-1');
    expect(Number(flag(tile, '-q:v'))).toBeGreaterThan(Number(flag(frame, '-q:v')));
    expect(tile.at(-1)).toBe('tile.jpg');
    expect(flag(tailScanArgs('in', 17), '-show_entries')).toBe('packet=pts_time');
    const mp4 = progressiveMp4Args('p.m3u8', 'o.mp4');
    expect(flag(mp4, '-c')).toBe('copy');
    expect(flag(mp4, '-movflags')).toBe('+faststart');
    expect(playlistSeconds('#EXTM3U\n#EXTINF:2.000000,\na.ts\n#EXTINF:1.5,\nb.ts\n#EXT-X-ENDLIST\n')).toBe(
      3.5,
    );
  });

  it('reads ffprobe output: containers, cover art, rotation, shapes', () => {
    const video = {
      codec_type: 'video',
      width: 1920,
      height: 1080,
      avg_frame_rate: '30000/1001',
      duration: '12.5',
    };
    const mp4 = { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '12.6' };
    expect(readProbe({ format: mp4, streams: [video, { codec_type: 'audio' }] })).toEqual({
      format: 'mov,mp4,m4a,3gp,3g2,mj2',
      width: 1920,
      height: 1080,
      durationSeconds: 12.5,
      fps: 30000 / 1001,
      hasAudio: true,
    });
    const rotated = { ...video, side_data_list: [{ rotation: -90 }] };
    expect(readProbe({ format: mp4, streams: [rotated] })).toMatchObject({
      width: 1080,
      height: 1920,
      hasAudio: false,
    });
    expect(readProbe({ format: mp4, streams: [{ ...video, tags: { rotate: '270' } }] })).toMatchObject({
      width: 1080,
    });
    // Container says nothing about length: measured later.
    expect(
      readProbe({ format: { format_name: 'matroska,webm' }, streams: [{ ...video, duration: undefined }] }),
    ).toMatchObject({
      durationSeconds: null,
    });
    const refused = (json: Parameters<typeof readProbe>[0]) => {
      try {
        readProbe(json);
        return 'accepted';
      } catch (err) {
        expect(err).toBeInstanceOf(MediaRejection);
        return (err as Error).message;
      }
    };
    expect(refused({ format: { format_name: 'png_pipe' }, streams: [video] })).toBe(
      'The file is not a video.',
    );
    expect(refused({ format: { format_name: 'gif' }, streams: [video] })).toBe('The file is not a video.');
    expect(
      refused({ format: { format_name: 'mp3' }, streams: [{ ...video, disposition: { attached_pic: 1 } }] }),
    ).toBe('The file is not a video.');
    // An M4A with cover art opens with the MP4 demuxer: the picture is not a video track.
    expect(
      refused({
        format: mp4,
        streams: [{ codec_type: 'audio' }, { ...video, disposition: { attached_pic: 1 } }],
      }),
    ).toBe('The file is not a video.');
    expect(refused({ format: mp4, streams: [{ ...video, width: 8, height: 8 }] })).toBe(
      'The video resolution is not supported.',
    );
    expect(refused({ format: mp4, streams: [{ ...video, width: 4000, height: 200 }] })).toBe(
      'The video resolution is not supported.',
    );
    expect(refused({})).toBe('The file is not a video.');
  });
});
