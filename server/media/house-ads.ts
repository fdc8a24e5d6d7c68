// The demo's house instream ad (public/ads.json names it): a 12 s clip made by ffmpeg from its own sources,
// like the demo videos, so a fresh install shows every ad format without a network or a committed video.
import fs from 'node:fs/promises';
import path from 'node:path';
import { aacArgs, h264Args, hlsMuxArgs, masterPlaylist, type Rendition } from './args';
import { ffmpeg } from './ffmpeg';
import type { MediaStorage } from './storage';

/** Media folder of the clip; public/ads.json points at `/media/${HOUSE_INSTREAM_DIR}/master.m3u8`. */
export const HOUSE_INSTREAM_DIR = 'ads/house/instream';
export const HOUSE_INSTREAM_SECONDS = 12;

const RENDITION: Rendition = { width: 540, height: 960, maxrateKbps: 1500 };
const FPS = 30;
const AUDIO_KBPS = 96;
// The system's sans-serif through fontconfig: a static ffmpeg's fontconfig may not find its bold face, so
// weight comes from an outline in the text's own colour (borderw).
const FONT = "font='sans-serif'";

/** Visible from `from` to `to` seconds, fading over `fade` at both ends (a drawtext or overlay alpha). */
export const fadeWindow = (from: number, to: number, fade = 0.5): string =>
  `if(lt(t,${from}),0,if(lt(t,${from + fade}),(t-${from})/${fade},if(lt(t,${to - fade}),1,if(lt(t,${to}),(${to}-t)/${fade},0))))`;

/**
 * A rounded rectangle in the brand gradient (violet to pink), transparent outside its corners, optionally
 * with the logo's play triangle: geq draws it once, loop repeats that frame for the whole clip.
 */
function roundedTile(w: number, h: number, r: number, triangle: boolean): string {
  // Distance outside the rectangle shrunk by r: inside the rounded shape while it is at most r.
  const dx = `max(abs(X-${w / 2})-${w / 2 - r},0)`;
  const dy = `max(abs(Y-${h / 2})-${h / 2 - r},0)`;
  const alpha = `255*clip(${r}+0.5-hypot(${dx},${dy}),0,1)`;
  // A play triangle pointing right, centred a little right of the middle as the app icon's is.
  const side = h * 0.42;
  const left = w / 2 - side * 0.36;
  const inTriangle = triangle ? `gte(X,${left})*lte(abs(Y-${h / 2}),(${left + side * 0.87}-X)*0.577)` : '0';
  const mix = `(X/${w}+Y/${h})/2`;
  const channel = (from: number, to: number) => `if(${inTriangle},255,${from}+(${to - from})*${mix})`;
  return [
    `color=c=black@0:size=${w}x${h}:rate=${FPS}:duration=${1 / FPS}`,
    'format=rgba',
    `geq=r='${channel(139, 236)}':g='${channel(92, 72)}':b='${channel(246, 153)}':a='${alpha}'`,
    `loop=loop=${HOUSE_INSTREAM_SECONDS * FPS}:size=1`,
    'setpts=N/FRAME_RATE/TB',
  ].join(',');
}

function text(
  content: string,
  opts: { size: number; y: number | string; color?: string; from: number; to: number },
): string {
  return [
    `drawtext=${FONT}`,
    `text='${content}'`,
    `fontsize=${opts.size}`,
    `fontcolor=${opts.color ?? 'white'}`,
    `bordercolor=${opts.color ?? 'white'}`,
    `borderw=${opts.size >= 50 ? 2 : 1}`,
    'x=(w-text_w)/2',
    `y=${opts.y}`,
    `alpha='${fadeWindow(opts.from, opts.to)}'`,
    'shadowcolor=black@0.35',
    'shadowy=3',
  ].join(':');
}

/**
 * The clip's ffmpeg arguments: a slowly drifting violet-to-pink backdrop, the logo sliding in, three short
 * scenes of text (brand, pitch, call to action) and a soft major chord. `withText` false leaves the words
 * out for an ffmpeg that finds no font (fontconfig with no fonts installed): the clip still plays.
 */
export function houseInstreamArgs(
  out: { playlist: string; segmentPattern: string },
  withText = true,
): string[] {
  const { width, height } = RENDITION;
  const s = HOUSE_INSTREAM_SECONDS;
  // Drawn small and scaled up: the gradient is smooth, and geq on 540x960 would cost seconds per clip. Each
  // channel stays within 0..255: geq wraps what falls outside (a green band where green dipped below 0).
  const backdrop =
    `color=c=black:size=180x320:rate=${FPS}:duration=${s},format=rgb24,` +
    `geq=r='52+110*(X+Y)/500+26*sin(T*0.7+X/23)':g='18+14*sin(T*0.9+Y/31)':` +
    `b='96+70*(1-(X+Y)/500)+30*cos(T*0.5+Y/27)',scale=${width}:${height}:flags=bicubic`;
  const words = withText
    ? [
        text('ShortCams', { size: 68, y: 452, from: 0.5, to: 4.2 }),
        text('Short clips from the cams you love', {
          size: 28,
          y: 540,
          color: '0xE9E3FF',
          from: 0.9,
          to: 4.2,
        }),
        text('FOR CREATORS', { size: 30, y: 330, color: '0xC4B5FD', from: 4.4, to: 8.6 }),
        text('Turn your cam', { size: 64, y: 400, from: 4.6, to: 8.6 }),
        text('into clips', { size: 64, y: 480, from: 4.8, to: 8.6 }),
        text('Upload free. Grow your fans.', { size: 30, y: 590, color: '0xE9E3FF', from: 5.2, to: 8.6 }),
        text('Join as a model', { size: 56, y: 380, from: 8.8, to: s + 1 }),
        text('It takes two minutes', { size: 30, y: 460, color: '0xE9E3FF', from: 9.0, to: s + 1 }),
        text('Sign up free', { size: 36, y: 575, from: 9.3, to: s + 1 }),
      ].join(',')
    : 'null';
  const graph = [
    `${backdrop}[bg]`,
    `${roundedTile(168, 168, 40, true)}[logo]`,
    `${roundedTile(300, 84, 42, false)}[pill]`,
    // The logo drops in from above, rests over the brand name, then leaves before the pitch.
    `[bg][logo]overlay=x=(W-w)/2:y='if(lt(t,0.6),-200+(t/0.6)*436,if(lt(t,4),236,236-(t-4)*1200))'[v1]`,
    `[v1][pill]overlay=x=(W-w)/2:y=552:enable='gte(t,9.2)'[v2]`,
    `[v2]${words},format=yuv420p,fade=t=out:st=${s - 0.4}:d=0.4[v]`,
    `aevalsrc='0.05*sin(2*PI*220*t)+0.035*sin(2*PI*277.18*t)+0.03*sin(2*PI*329.63*t)':s=44100:d=${s},` +
      `afade=t=in:d=0.8,afade=t=out:st=${s - 1}:d=1[a]`,
  ].join(';');
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    '-filter_complex',
    graph,
    '-map',
    '[v]',
    '-map',
    '[a]',
    '-t',
    String(s),
    ...h264Args(RENDITION, FPS),
    ...aacArgs(),
    ...hlsMuxArgs(out),
  ];
}

async function exists(storage: MediaStorage, relative: string): Promise<boolean> {
  const file = await storage.read(relative, { start: 0, end: 0 });
  file?.body.destroy();
  return file !== undefined;
}

/**
 * Makes the house instream clip unless it is already there (every start checks: installs seeded before it
 * existed get it too). A failure is logged and the demo goes on without it: the app gives up on an ad that
 * does not load and plays the video.
 */
export async function ensureHouseInstream(storage: MediaStorage, log: (msg: string) => void): Promise<void> {
  const master = `${HOUSE_INSTREAM_DIR}/master.m3u8`;
  if (await exists(storage, master)) return;
  const tmp = await fs.mkdtemp(path.join(await storage.workDir('tmp'), 'house-ad-'));
  try {
    const variant = `${Math.min(RENDITION.width, RENDITION.height)}p`;
    await fs.mkdir(path.join(tmp, variant));
    const out = {
      playlist: path.join(tmp, variant, 'index.m3u8'),
      segmentPattern: path.join(tmp, variant, 'seg_%03d.ts'),
    };
    await ffmpeg(houseInstreamArgs(out), { timeoutMs: 180_000 }).catch(async (err: unknown) => {
      log(`house instream ad: ${(err as Error).message.split('\n')[0]}; made again without its words`);
      await ffmpeg(houseInstreamArgs(out, false), { timeoutMs: 180_000 });
    });
    await fs.writeFile(
      path.join(tmp, 'master.m3u8'),
      masterPlaylist([{ uri: `${variant}/index.m3u8`, rendition: RENDITION, audioKbps: AUDIO_KBPS }]),
    );
    await storage.publishDir(tmp, HOUSE_INSTREAM_DIR);
  } catch (err) {
    await fs.rm(tmp, { recursive: true, force: true });
    log(`house instream ad not made: ${(err as Error).message.split('\n')[0]}`);
  }
}
