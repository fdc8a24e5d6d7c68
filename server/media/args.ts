// Pure builders of ffmpeg argument lists. Each flag carries the reason it is there, so that a change of
// encoder settings is a reviewed change to one function, and tests can assert the lists without running
// anything.

export interface Rendition {
  width: number;
  height: number;
  /** Peak video bitrate in kbit/s: the HLS BANDWIDTH attribute is derived from it. */
  maxrateKbps: number;
}

export interface HlsOutput {
  /** Media playlist of the single rendition, e.g. …/540p/index.m3u8. */
  playlist: string;
  /** Segment file pattern, e.g. …/540p/seg_%03d.ts. */
  segmentPattern: string;
  thumbnail: string;
}

/** Keyframe every 2 s: segments cut cleanly at 2 s and a seek never waits long for a picture. */
export const SEGMENT_SECONDS = 2;

/** Common silence about everything but errors, and overwrite: jobs are retried into the same folder. */
const quiet = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'] as const;

/** H.264 settings shared by every video we publish. */
export function h264Args(r: Rendition, fps: number): string[] {
  const gop = String(fps * SEGMENT_SECONDS);
  return [
    '-c:v',
    'libx264',
    // veryfast: this runs on 2-core machines; the quality loss against "medium" is small at these sizes.
    '-preset',
    'veryfast',
    // Main profile plays on every phone browser of the last decade, including old iOS Safari.
    '-profile:v',
    'main',
    '-pix_fmt',
    'yuv420p',
    // Constant quality with a cap: simple scenes stay small, busy ones cannot starve a slow network.
    '-crf',
    '24',
    '-maxrate',
    `${r.maxrateKbps}k`,
    '-bufsize',
    `${r.maxrateKbps * 2}k`,
    // Fixed GOP without scene-cut keyframes, so every segment starts on a keyframe at the same time.
    '-g',
    gop,
    '-keyint_min',
    gop,
    '-sc_threshold',
    '0',
    '-r',
    String(fps),
  ];
}

/** AAC-LC stereo: the one audio codec HLS players everywhere decode. */
export const aacArgs = (): string[] => ['-c:a', 'aac', '-b:a', '96k', '-ac', '2', '-ar', '44100'];

export function hlsMuxArgs(out: Pick<HlsOutput, 'playlist' | 'segmentPattern'>): string[] {
  return [
    // Strip container metadata (encoder tags, creation time, GPS from phones) from what we publish.
    '-map_metadata',
    '-1',
    '-f',
    'hls',
    '-hls_time',
    String(SEGMENT_SECONDS),
    // VOD: the playlist is complete and ends with EXT-X-ENDLIST, so players know the duration at once.
    '-hls_playlist_type',
    'vod',
    // Each segment starts with a keyframe (see the GOP above); tells players they may start anywhere.
    '-hls_flags',
    'independent_segments',
    '-hls_segment_filename',
    out.segmentPattern,
    out.playlist,
  ];
}

export interface DemoClip {
  /** A lavfi source graph producing frames of any size, e.g. "life=size=180x320:rate=30". */
  source: string;
  seconds: number;
  fps: number;
  toneHz: number;
  rendition: Rendition;
}

/**
 * A generated demo clip: an abstract pattern with a quiet tone, encoded straight to one HLS rendition,
 * plus a JPEG thumbnail of its first second, in a single ffmpeg run.
 */
export function demoClipArgs(clip: DemoClip, out: HlsOutput): string[] {
  const { width, height } = clip.rendition;
  const fadeOut = Math.max(0, clip.seconds - 0.5).toFixed(2);
  const graph = [
    // Scale to the published size with square pixels, then split: one copy for HLS, one for the poster.
    `[0:v]scale=${width}:${height}:flags=bicubic,setsar=1,format=yuv420p,split=2[v][t]`,
    // The poster is frame 1 s in: generated patterns often start from a blank first frame.
    `[t]select=eq(n\\,${clip.fps})[thumb]`,
    // A soft tone, faded in and out, so unmuting is audible but never startling.
    `[1:a]volume=0.12,afade=t=in:d=0.5,afade=t=out:st=${fadeOut}:d=0.5[a]`,
  ].join(';');
  return [
    ...quiet,
    // Generated sources are endless: bound them at the input, or the poster branch keeps ffmpeg alive.
    '-t',
    String(clip.seconds),
    '-f',
    'lavfi',
    '-i',
    clip.source,
    '-t',
    String(clip.seconds),
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${clip.toneHz}:sample_rate=44100`,
    '-filter_complex',
    graph,
    '-map',
    '[v]',
    '-map',
    '[a]',
    ...h264Args(clip.rendition, clip.fps),
    ...aacArgs(),
    ...hlsMuxArgs(out),
    '-map',
    '[thumb]',
    '-frames:v',
    '1',
    // JPEG quality 4 of 31: sharp enough for a full-screen poster at a fraction of PNG's size.
    '-q:v',
    '4',
    out.thumbnail,
  ];
}

/** A still image (avatar or cover) from a lavfi source, as JPEG without metadata. */
export function stillImageArgs(source: string, width: number, height: number, output: string): string[] {
  return [
    ...quiet,
    '-f',
    'lavfi',
    '-i',
    source,
    '-frames:v',
    '1',
    '-vf',
    `scale=${width}:${height}:flags=bicubic,setsar=1`,
    '-map_metadata',
    '-1',
    '-q:v',
    '3',
    output,
  ];
}

/** RFC 8216 master playlist; CODECS lets a player decide before fetching a single segment. */
export function masterPlaylist(variants: { uri: string; rendition: Rendition; audioKbps: number }[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const { uri, rendition, audioKbps } of variants) {
    const bandwidth = (rendition.maxrateKbps + audioKbps) * 1000;
    lines.push(
      // avc1.4d401f = Main profile, level 3.1; mp4a.40.2 = AAC-LC.
      `#EXT-X-STREAM-INF:BANDWIDTH=${bandwidth},RESOLUTION=${rendition.width}x${rendition.height},CODECS="avc1.4d401f,mp4a.40.2"`,
      uri,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Re-encodes an uploaded still (avatar, cover, ID photo) to a fresh JPEG: the demuxer is forced to the
 * format its magic bytes showed, so ffmpeg never guesses at hostile input; the image is scaled to cover
 * the box and cropped at the centre (or only bounded when `crop` is false); every metadata block (EXIF
 * with GPS, camera, comments) is dropped because nothing is copied from the input but pixels.
 */
export function stillReencodeArgs(
  input: string,
  format: 'png' | 'jpeg',
  box: { width: number; height: number; crop: boolean },
  output: string,
): string[] {
  const { width, height } = box;
  const filter = box.crop
    ? `scale=${width}:${height}:force_original_aspect_ratio=increase:flags=bicubic,crop=${width}:${height},setsar=1`
    : `scale=${width}:${height}:force_original_aspect_ratio=decrease:flags=bicubic,setsar=1`;
  return [
    ...quiet,
    '-f',
    format === 'png' ? 'png_pipe' : 'jpeg_pipe',
    '-i',
    input,
    '-frames:v',
    '1',
    '-vf',
    // Full-range yuv420p: what every browser decodes for JPEG; also flattens PNG transparency.
    `${filter},format=yuvj420p`,
    '-map_metadata',
    '-1',
    '-map_chapters',
    '-1',
    '-q:v',
    '3',
    '-f',
    'image2',
    '-c:v',
    'mjpeg',
    output,
  ];
}
