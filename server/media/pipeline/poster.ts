// Posters of uploads and of the demo: light enough not to hold back the first segments, with a tile beside.
import fs from 'node:fs/promises';
import path from 'node:path';
import { fitWithin, TILE_MAX, tileArgs } from '../args';
import { ffmpeg } from '../ffmpeg';

/** Posters (screenshot, thumbnail) are at most this on their long side: full screen on a phone. */
export const POSTER_MAX = 960;

/**
 * A poster shows only until the first frame, and the feed asks for it beside the video's first segments: a
 * busy picture (grain, noise; 340-370 KB at 540x960 for a third of the demo clips) outweighs the 2 s
 * segment it stands in for and shares the network with it. On Slow 4G that held the first frame back by
 * about a second (issue 17). Past this many bytes the poster is its tile instead, softer for that moment.
 */
export const POSTER_MAX_BYTES = 128 * 1024;

/**
 * The last step of every poster (uploads and the demo): writes `tile.jpg` beside a poster of `size` in the
 * local folder `dir`, for grids and carousels, and keeps the poster within POSTER_MAX_BYTES.
 */
export async function finishPoster(dir: string, poster: string, size: { width: number; height: number }) {
  const posterFile = path.join(dir, poster);
  const tileFile = path.join(dir, 'tile.jpg');
  await ffmpeg(tileArgs(posterFile, fitWithin(size, TILE_MAX), tileFile), { timeoutMs: 30_000 });
  if ((await fs.stat(posterFile)).size > POSTER_MAX_BYTES) await fs.copyFile(tileFile, posterFile);
}
