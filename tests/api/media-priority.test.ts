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
    // Read at its own pace (-re), so it runs for the half second the sampling needs however fast the
    // machine: unpaced, a fast one finished before the first sample.
    const halfASecond = [
      '-v',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x180:rate=30',
      '-t',
      '0.5',
      '-f',
      'null',
      '-',
    ];
    expect(await ffmpegNicenessWhile(() => ffmpeg(halfASecond))).toEqual([10]);
    // Work that may wait (a video's higher renditions once it plays) yields to all of it.
    expect(await ffmpegNicenessWhile(() => ffmpeg(halfASecond, { background: true }))).toEqual([19]);
  });
});
