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
  /** Media playlist of one rendition, e.g. …/540p/index.m3u8. */
  playlist: string;
  /** Segment file pattern, e.g. …/540p/seg_%03d.ts. */
  segmentPattern: string;
}

/** One rendition of a run that encodes several, and where its HLS goes. */
export interface RenditionOutput extends HlsOutput {
  rendition: Rendition;
}

/** Keyframe every 2 s: segments cut cleanly at 2 s and a seek never waits long for a picture. */
export const SEGMENT_SECONDS = 2;

/** Common silence about everything but errors, and overwrite: jobs are retried into the same folder. */
const quiet = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'] as const;

/**
 * H.264 levels (ITU-T H.264 table A-1) from 3.0 up: macroblocks per second, frame size in macroblocks and
 * peak bitrate (Main profile, kbit/s). Lower levels exist, but 3.0 is what every phone decodes anyway.
 */
const H264_LEVELS = [
  { level: 30, mbps: 40_500, fs: 1_620, kbps: 10_000 },
  { level: 31, mbps: 108_000, fs: 3_600, kbps: 14_000 },
  { level: 32, mbps: 216_000, fs: 5_120, kbps: 20_000 },
  { level: 40, mbps: 245_760, fs: 8_192, kbps: 20_000 },
  { level: 41, mbps: 245_760, fs: 8_192, kbps: 50_000 },
  { level: 42, mbps: 522_240, fs: 8_704, kbps: 50_000 },
  { level: 50, mbps: 589_824, fs: 22_080, kbps: 135_000 },
  { level: 51, mbps: 983_040, fs: 36_864, kbps: 240_000 },
] as const;

/** The lowest level that holds this rendition, as 10 × the level number (31 = 3.1). */
export function h264Level(r: Rendition, fps: number): number {
  const fs = Math.ceil(r.width / 16) * Math.ceil(r.height / 16);
  const fit = H264_LEVELS.find((l) => fs <= l.fs && fs * fps <= l.mbps && r.maxrateKbps <= l.kbps);
  return fit?.level ?? 51;
}

/** RFC 6381 codecs of a published rendition: H.264 Main (4d, constraint set 1) at its level, AAC-LC. */
export const codecsOf = (r: Rendition, fps: number): string =>
  `avc1.4d40${h264Level(r, fps).toString(16).padStart(2, '0')},mp4a.40.2`;

/** H.264 settings shared by every video we publish. */
export function h264Args(r: Rendition, fps: number): string[] {
  const gop = String(fps * SEGMENT_SECONDS);
  const level = h264Level(r, fps);
  return [
    '-c:v',
    'libx264',
    // veryfast: this runs on 2-core machines; the quality loss against "medium" is small at these sizes.
    '-preset',
    'veryfast',
    // Main profile plays on every phone browser of the last decade, including old iOS Safari.
    '-profile:v',
    'main',
    // Stated rather than guessed by x264, so the master playlist's CODECS matches the stream exactly.
    '-level:v',
    `${Math.floor(level / 10)}.${level % 10}`,
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

export function hlsMuxArgs(out: HlsOutput): string[] {
  return [
    // Strip container metadata (encoder tags, creation time, GPS from phones) and chapters from what we
    // publish.
    '-map_metadata',
    '-1',
    '-map_chapters',
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

/** Folder and playlist name of a rendition: its short side, as players and people name them. */
export const renditionName = (r: Pick<Rendition, 'width' | 'height'>) => `${Math.min(r.width, r.height)}p`;

/** Where a rendition's HLS goes inside a video's folder: `<dir>/540p/index.m3u8` and its segments beside it. */
export const renditionOutput = (dir: string, rendition: Rendition): RenditionOutput => ({
  rendition,
  playlist: `${dir}/${renditionName(rendition)}/index.m3u8`,
  segmentPattern: `${dir}/${renditionName(rendition)}/seg_%03d.ts`,
});

/**
 * Filter-graph chains that split one video (`head`: an input label and any filters before the split) into a
 * scaler per rendition, labelled [v0], [v1]… in the order given, plus one untouched branch per label in
 * `taps` (a poster, say). Splitting before scaling means the source is made or decoded only once per run.
 */
function scalerChains(
  head: string,
  renditions: readonly Rendition[],
  flags: 'bicubic' | 'area',
  taps: readonly string[] = [],
): string[] {
  const branches = [...renditions.map((_, i) => `[s${i}]`), ...taps.map((t) => `[${t}]`)];
  return [
    `${head}split=${branches.length}${branches.join('')}`,
    // Square pixels, and the 4:2:0 layout H.264 Main requires.
    ...renditions.map(
      (r, i) => `[s${i}]scale=${r.width}:${r.height}:flags=${flags},setsar=1,format=yuv420p[v${i}]`,
    ),
  ];
}

/**
 * One output per rendition, in the order of `outputs`: the scaler's [v<i>] of scalerChains, the audio
 * `audio(i)` names, and an encoder and HLS muxer of its own (ffmpeg encodes the outputs of a run side by side).
 */
const renditionOutputsArgs = (
  outputs: readonly RenditionOutput[],
  fps: number,
  audio: (i: number) => string,
): string[] =>
  outputs.flatMap(({ rendition, playlist, segmentPattern }, i) => [
    '-map',
    `[v${i}]`,
    '-map',
    audio(i),
    ...h264Args(rendition, fps),
    ...aacArgs(),
    ...hlsMuxArgs({ playlist, segmentPattern }),
  ]);

export interface DemoClip {
  /** A lavfi source graph producing frames of any size, e.g. "life=size=180x320:rate=30". */
  source: string;
  seconds: number;
  fps: number;
  toneHz: number;
  /**
   * The HLS ladder, lowest first as the master playlist lists it. The poster is the size of the last one,
   * the highest.
   */
  renditions: readonly Rendition[];
}

/**
 * A generated demo clip: an abstract pattern with a quiet tone, encoded straight to every rendition of its
 * ladder, plus a JPEG thumbnail of its first second, in a single ffmpeg run. Each rendition's HLS goes to
 * `renditionOutput(dir, rendition)`, in the order of the ladder.
 */
export function demoClipArgs(clip: DemoClip, out: { dir: string; thumbnail: string }): string[] {
  const poster = clip.renditions.at(-1);
  if (!poster) throw new Error('a demo clip needs a rendition');
  const n = clip.renditions.length;
  const fadeOut = Math.max(0, clip.seconds - 0.5).toFixed(2);
  const graph = [
    // The pattern is generated once, scaled to the highest rendition with square pixels, then split: one
    // scaler and encoder per rendition, one copy for the poster. The upscale and colour conversion of a
    // pattern (some are RGB) happen once, not per rendition: the highest rendition's scaler passes its
    // frames through unchanged, and a lower one is a box average of 4:2:0 frames (2:1 for 270p), the
    // cheapest downscale and one that does not alias.
    ...scalerChains(
      `[0:v]scale=${poster.width}:${poster.height}:flags=bicubic,setsar=1,format=yuv420p,`,
      clip.renditions,
      'area',
      ['t'],
    ),
    // The poster is frame 1 s in: generated patterns often start from a blank first frame.
    `[t]select=eq(n\\,${clip.fps})[thumb]`,
    // A soft tone, faded in and out, so unmuting is audible but never startling; one copy per output (a
    // filter's output feeds one output only).
    `[1:a]volume=0.12,afade=t=in:d=0.5,afade=t=out:st=${fadeOut}:d=0.5,asplit=${n}${clip.renditions.map((_, i) => `[a${i}]`).join('')}`,
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
    // Every rendition with the same x264 settings. A faster preset for the low one was measured and is not
    // worth it: superfast saves some 4% of the run (the pattern and the 540p encode are most of it) and makes
    // the 270p, the rendition a slow link plays, about 30% larger at the same CRF.
    ...renditionOutputsArgs(
      clip.renditions.map((r) => renditionOutput(out.dir, r)),
      clip.fps,
      (i) => `[a${i}]`,
    ),
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
export function masterPlaylist(
  variants: { uri: string; rendition: Rendition; audioKbps: number; fps?: number }[],
): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const { uri, rendition, audioKbps, fps = 30 } of variants) {
    // BANDWIDTH is the peak: the capped video rate plus audio, so a player never picks a variant it cannot
    // sustain.
    const bandwidth = (rendition.maxrateKbps + audioKbps) * 1000;
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${bandwidth},RESOLUTION=${rendition.width}x${rendition.height},CODECS="${codecsOf(rendition, fps)}"`,
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

// ---- Uploaded videos -------------------------------------------------------------------------------

/**
 * The HLS ladder of uploads, by the short side (a vertical 1080x1920 clip is "1080p"). Peak rates suit
 * phone-sized H.264 at the CRF above; the player picks by BANDWIDTH.
 */
export const LADDER = [
  { shortSide: 360, maxrateKbps: 800 },
  { shortSide: 540, maxrateKbps: 1500 },
  { shortSide: 720, maxrateKbps: 2800 },
  { shortSide: 1080, maxrateKbps: 5000 },
] as const;
export const AUDIO_KBPS = 96;
/** Short-video playback gains nothing from more; halving 60 fps also halves the encoding time. */
export const MAX_FPS = 30;

/** Even, at least 2: yuv420p needs both dimensions even. */
const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/**
 * Renditions for a source of this display size: every ladder step up to the source's short side, never
 * upscaled, keeping the source's aspect ratio. A source smaller than the first step gets one rendition at
 * its own size.
 */
export function ladderFor(source: { width: number; height: number }): Rendition[] {
  const short = Math.min(source.width, source.height);
  const long = Math.max(source.width, source.height);
  const steps = LADDER.filter((s) => s.shortSide <= short);
  const chosen = steps.length > 0 ? steps : [{ shortSide: even(short), maxrateKbps: LADDER[0].maxrateKbps }];
  return chosen.map(({ shortSide, maxrateKbps }) => {
    const longSide = even((shortSide * long) / short);
    return source.width <= source.height
      ? { width: shortSide, height: longSide, maxrateKbps }
      : { width: longSide, height: shortSide, maxrateKbps };
  });
}

/** Whole frames per second (29.97 → 30), at most MAX_FPS; unknown rates get 30. */
export function outputFps(sourceFps: number): number {
  if (!Number.isFinite(sourceFps) || sourceFps <= 0) return MAX_FPS;
  return Math.max(1, Math.min(MAX_FPS, Math.round(sourceFps > MAX_FPS * 1.5 ? sourceFps / 2 : sourceFps)));
}

/** A box of at most `max` on the long side, same aspect ratio, never larger than the source. */
export function fitWithin(source: { width: number; height: number }, max: number) {
  const scale = Math.min(1, max / Math.max(source.width, source.height));
  return { width: even(source.width * scale), height: even(source.height * scale) };
}

/** Everything ffprobe knows about the container and its streams, as JSON. */
export const probeArgs = (input: string): string[] => [
  '-v',
  'error',
  '-print_format',
  'json',
  '-show_format',
  '-show_streams',
  input,
];

/**
 * Timestamps of the video packets from `fromSeconds` to the end. Reading packets (no decoding) is cheap;
 * a file cut short stops early or reports a partial file, which is how a truncated upload whose index
 * is intact (moov atom first) is caught before anyone waits for a transcode.
 */
export const tailScanArgs = (input: string, fromSeconds: number): string[] => [
  '-v',
  'error',
  '-select_streams',
  'v:0',
  '-read_intervals',
  // An explicit end (a day past the start, beyond any upload we take): the open form `17%` reads no
  // packets at all with the ffprobe build npm ships (5.2), which would refuse every upload as damaged.
  `${fromSeconds.toFixed(3)}%+86400`,
  '-show_entries',
  'packet=pts_time',
  '-of',
  'csv=p=0',
  input,
];

/** One frame as a JPEG without metadata: the screenshot at 0 s, or the thumbnail a little later. */
export function frameArgs(
  input: string,
  opts: { atSeconds: number; size: { width: number; height: number }; output: string },
): string[] {
  return [
    ...quiet,
    // Before -i: seek by the index to the nearest keyframe, then decode only up to the frame wanted.
    ...(opts.atSeconds > 0 ? ['-ss', opts.atSeconds.toFixed(3)] : []),
    '-i',
    input,
    '-map',
    '0:v:0',
    '-frames:v',
    '1',
    '-vf',
    `scale=${opts.size.width}:${opts.size.height}:flags=bicubic,setsar=1`,
    '-map_metadata',
    '-1',
    // JPEG quality 4 of 31: sharp enough for a full-screen poster at a fraction of PNG's size.
    '-q:v',
    '4',
    '-f',
    'image2',
    opts.output,
  ];
}

/** Grid tiles (tile.jpg) are at most this on their long side: a third of a phone's width at 3x density. */
export const TILE_MAX = 480;

/**
 * The grid-size copy of a poster: grids and carousels show a dozen at once, so on a phone network each
 * full-screen poster would cost several times what its tile does.
 */
export function tileArgs(poster: string, size: { width: number; height: number }, output: string): string[] {
  return [
    ...quiet,
    '-i',
    poster,
    // Area averaging: a downscale that smooths noise instead of aliasing it, which also compresses better.
    '-vf',
    `scale=${size.width}:${size.height}:flags=area,setsar=1`,
    '-map_metadata',
    '-1',
    // Quality 7 of 31: at tile size the loss does not show, and busy frames stay around a fifth the size.
    '-q:v',
    '7',
    '-f',
    'image2',
    output,
  ];
}

export interface LadderJob {
  input: string;
  /** Seconds; bounds the generated silence of a silent source. */
  durationSeconds: number;
  hasAudio: boolean;
  fps: number;
  outputs: RenditionOutput[];
  /**
   * swscale's filter. `area` (box averaging) for the lowest rendition, which is encoded alone on the way to
   * the first playable moment: a third of bicubic's cost at the 3x downscale from 1080p, and no aliasing.
   */
  scaler?: 'bicubic' | 'area';
}

/**
 * Renditions of the ladder in one ffmpeg run (the pipeline runs the lowest alone, then the rest together):
 * the source is decoded once per run, converted to a constant frame rate (HLS players expect one; phones
 * record variable rates) and split into one scaler and encoder per rendition.
 */
export function ladderArgs(job: LadderJob): string[] {
  const graph = scalerChains(
    `[0:v:0]fps=${job.fps},`,
    job.outputs.map((o) => o.rendition),
    job.scaler ?? 'bicubic',
  ).join(';');
  // Every published video has an audio track: players switching between a silent and a sounding video
  // (and MSE source buffers declared with mp4a) stall on a missing track, so silence is made, not omitted.
  const silence = job.hasAudio
    ? []
    : [
        '-f',
        'lavfi',
        '-t',
        job.durationSeconds.toFixed(3),
        '-i',
        'anullsrc=channel_layout=stereo:sample_rate=44100',
      ];
  const audio = job.hasAudio ? '0:a:0' : '1:a:0';
  return [
    ...quiet,
    '-i',
    job.input,
    ...silence,
    '-filter_complex',
    graph,
    // An input stream, unlike a filter's output, may be mapped into every output.
    ...renditionOutputsArgs(job.outputs, job.fps, () => audio),
  ];
}

/**
 * A progressive MP4 of one rendition for clients without HLS (share previews, downloads): the HLS
 * segments copied, not re-encoded, with the index moved to the front (faststart) so playback starts
 * before the whole file is loaded.
 */
export const progressiveMp4Args = (playlist: string, output: string): string[] => [
  ...quiet,
  '-i',
  playlist,
  '-map',
  '0',
  '-c',
  'copy',
  '-map_metadata',
  '-1',
  '-movflags',
  '+faststart',
  output,
];

/** Seconds a media playlist plays: the sum of its EXTINF durations. */
export function playlistSeconds(playlist: string): number {
  let total = 0;
  for (const match of playlist.matchAll(/^#EXTINF:([\d.]+)/gm)) total += Number(match[1]);
  return total;
}
