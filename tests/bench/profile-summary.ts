// Summarises a V8 .cpuprofile (node --cpu-prof): self time per function and per module, biggest first.
// `npx tsx tests/bench/profile-summary.ts file.cpuprofile [top]`
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Which package or source folder a script belongs to: the unit a fix works on. */
export function moduleOf(url: string): string {
  if (!url) return '(native / V8)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return url;
  const m = /\/(server|src)\/(.+)$/.exec(url);
  if (m) return `${m[1]}/${m[2]}`;
  return url.replace(/^file:\/\//, '');
}

/** `lastUs`: only the samples of the profile's last so many µs (the load, not the start-up before it). */
export function summarise(profile: Profile, top = 25, lastUs = Number.POSITIVE_INFINITY): string {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const from = profile.endTime - lastUs;
  let at = profile.startTime;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from) return;
    total += delta;
    selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });
  const fn = new Map<string, number>();
  const mod = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byNode.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const m = moduleOf(url);
    const name = `${functionName || '(anonymous)'}  ${m}${url ? `:${lineNumber + 1}` : ''}`;
    fn.set(name, (fn.get(name) ?? 0) + us);
    mod.set(m, (mod.get(m) ?? 0) + us);
  }
  const pct = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)} %`;
  const rows = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, us]) => `  ${pct(us)}  ${k}`)
      .join('\n');
  return `${(total / 1e6).toFixed(1)} s sampled\nself time by module:\n${rows(mod)}\nself time by function:\n${rows(fn)}`;
}

if (process.argv[1]?.endsWith('profile-summary.ts')) {
  const [file, top] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary.ts file.cpuprofile [top]');
  console.log(summarise(JSON.parse(fs.readFileSync(file, 'utf8')) as Profile, Number(top ?? 25)));
}
