// A transcode must not starve the API's requests: every media tool runs at the lowest CPU priority.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configureBinaries, ffmpeg, MEDIA_TOOL_NICENESS } from '../../server/media/ffmpeg';

/** Niceness of this process's children named ffmpeg (/proc/{pid}/stat: ppid is field 4, nice field 19). */
function childNiceness(): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (name.startsWith('ffmpeg') && Number(fields[1]) === process.pid) found.push(Number(fields[16]));
    } catch {
      // exited while we read
    }
  }
  return found;
}

describe('media tools', () => {
  it('run at the lowest CPU priority', async () => {
    configureBinaries({ ffmpegPath: undefined, ffprobePath: undefined });
    const seen: number[] = [];
    const watch = setInterval(() => seen.push(...childNiceness()), 20);
    try {
      await ffmpeg([
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
      ]);
    } finally {
      clearInterval(watch);
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set([MEDIA_TOOL_NICENESS]));
  });
});
