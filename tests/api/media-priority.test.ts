// A transcode must not starve the API's requests: the server runs every media tool at a lower CPU priority.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { configureBinaries, ffmpeg } from '../../server/media/ffmpeg';

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
  it('run at the configured lower CPU priority (MEDIA_NICENESS, 10 by default)', async () => {
    const { mediaNiceness } = loadConfig({});
    expect(mediaNiceness).toBe(10);
    configureBinaries({ mediaNiceness });
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
    expect(new Set(seen)).toEqual(new Set([10]));
    // Back to the API tests' own default (unchanged priority).
    configureBinaries({});
  });
});
