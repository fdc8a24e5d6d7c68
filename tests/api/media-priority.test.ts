// A transcode must not starve the API's requests: the server runs every media tool at a lower CPU priority.
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../../server/config';
import { configureBinaries, ffmpeg } from '../../server/media/ffmpeg';
import { ffmpegNicenessWhile } from './media-fixtures';

describe('media tools', () => {
  it('run at the configured lower CPU priority (MEDIA_NICENESS, 10 by default), background work at 19', async () => {
    const { mediaNiceness } = loadConfig({});
    expect(mediaNiceness).toBe(10);
    configureBinaries({ mediaNiceness });
    onTestFinished(() => configureBinaries({}));
    const oneAndAHalfSeconds = [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=640x360:rate=30',
      '-t',
      '1.5',
      '-f',
      'null',
      '-',
    ];
    expect(await ffmpegNicenessWhile(() => ffmpeg(oneAndAHalfSeconds))).toEqual([10]);
    // Work that may wait (a video's higher renditions once it plays) yields to all of it.
    expect(await ffmpegNicenessWhile(() => ffmpeg(oneAndAHalfSeconds, { background: true }))).toEqual([19]);
  });
});
