// A lossy, slow link shaped in the kernel, for `npm run bench -- network` and "first frame vs bare video": a network namespace of the bench's
// own, joined to the host by a veth pair. Everything the browser sends or receives crosses the pair:
//
//   host: server on HOST_ADDR ── veth (tbf: download rate) ══ veth (tbf: upload rate; nft: loss) :namespace
//
// Rate: a token bucket (tbf) on the egress of each end, the host end for the download and the namespace end
// for the upload. Loss: nftables in the namespace drops `numgen random mod 100 < N` of the packets in each
// direction (this kernel has no netem). Delay and jitter are not here: the relay (relay.ts) adds them; the
// routes across the pair only carry the minimum retransmission timeout that delay implies.
// Both ends send one MTU-sized packet per skb (gso_max_segs 1): a TCP "super packet" of 40 segments would
// otherwise cross the pair whole, and the loss rule would drop 40 segments at once.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface LinkShape {
  /** Download and upload rate, kbit/s. */
  rateKbit: number;
  /** The upload's own rate, kbit/s, where it differs (a mobile link's uplink is slower). */
  upRateKbit?: number | undefined;
  /** The round trip the relay adds: TCP's minimum retransmission timeout across the pair follows it. */
  rttMs: number;
  /** Packets dropped in each direction, percent (100: nothing gets through). */
  lossPercent: number;
}

export interface Link {
  ns: string;
  /** The host end's address: the server listens here. */
  hostAddr: string;
  /** Runs `ip netns exec <ns> <chromium> "$@"`: Playwright's executablePath. */
  chromiumWrapper: string;
  shape(shape: LinkShape): void;
  setLoss(percent: number): void;
  /** Bytes sent so far from the host end into the namespace: what crossed the link downwards, headers included. */
  downloadedBytes(): number;
  /** Removes the namespace (and with it the veth pair, both qdiscs and the nft table). Safe to call twice. */
  destroy(): void;
}

const run = (cmd: string, args: string[], input?: string) =>
  execFileSync(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'], input, encoding: 'utf8' });

const inNs = (ns: string, cmd: string, args: string[], input?: string) =>
  run('ip', ['netns', 'exec', ns, cmd, ...args], input);

const errorText = (error: unknown) =>
  String((error as { stderr?: string }).stderr || (error as Error).message).trim();

/** Why this machine cannot run the bench (not root, no `ip netns`, no tc or nft), or undefined. */
export function linkUnavailable(): string | undefined {
  if (process.getuid?.() !== 0)
    return 'needs root (it creates a network namespace, veth pair, qdiscs, nft rules)';
  for (const [cmd, args, hint] of [
    ['ip', ['-V'], 'iproute2 (`ip`)'],
    ['tc', ['-V'], 'iproute2 (`tc`)'],
    ['nft', ['--version'], 'nftables (`apt-get install -y nftables`)'],
  ] as const) {
    try {
      run(cmd, [...args]);
    } catch {
      return `needs ${hint}`;
    }
  }
  return undefined;
}

/** A /24 in 10.77.x.0 that no interface on the host uses yet (a leftover of another run keeps its own). */
function freeSubnet(): number {
  const used = run('ip', ['-o', '-4', 'addr', 'show']);
  for (let x = 0; x < 250; x++) if (!used.includes(` 10.77.${x}.`)) return x;
  throw new Error('no free 10.77.x.0/24 on this host');
}

/** The nft table in the namespace: loss on the veth end only (the namespace's loopback stays clean). */
function lossRules(ns: string, nsIf: string, percent: number): string {
  const table = ns.replace(/\W/g, '_');
  const drop =
    percent <= 0 ? '' : percent >= 100 ? 'drop' : `numgen random mod 100 < ${Math.round(percent)} drop`;
  const rule = (dir: 'iifname' | 'oifname') => (drop ? `${dir} "${nsIf}" ${drop};` : '');
  // `add table` then `delete table` then the whole table again, in one transaction: the rules change at once.
  return [
    `add table inet ${table}`,
    `delete table inet ${table}`,
    `table inet ${table} {`,
    `  chain down { type filter hook input priority 0; policy accept; ${rule('iifname')} }`,
    `  chain up { type filter hook output priority 0; policy accept; ${rule('oifname')} }`,
    '}',
    '',
  ].join('\n');
}

/**
 * A token bucket of `rateKbit`: bursts of 10 ms at the rate (at least 16 KB), and a queue of 100 ms at the rate
 * before it drops. TCP's small-queue limit keeps a local sender from filling it, so it adds little delay.
 */
function tbf(rateKbit: number): string[] {
  const burst = Math.max(16_384, Math.round(((rateKbit * 1000) / 8) * 0.01));
  return ['root', 'tbf', 'rate', `${rateKbit}kbit`, 'burst', String(burst), 'latency', '100ms'];
}

/**
 * Creates the namespace `nbench-<pid>`. Throws with `ip`'s own message when the kernel refuses (no netns in a
 * container, for one): the caller reports it as a skip.
 */
export function createLink(): Link {
  const ns = `nbench-${process.pid}`;
  // Interface names have 15 characters at most.
  const hostIf = `nbh${process.pid}`.slice(0, 15);
  const nsIf = `nbn${process.pid}`.slice(0, 15);
  const subnet = freeSubnet();
  const hostAddr = `10.77.${subnet}.1`;
  const nsAddr = `10.77.${subnet}.2`;
  const subnetCidr = `10.77.${subnet}.0/24`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shortcams-netbench-'));
  let destroyed = false;
  const destroy = () => {
    if (destroyed) return;
    destroyed = true;
    // Deleting the namespace deletes its veth end, whose peer (the host end) goes with it, qdiscs included;
    // the nft table lived in the namespace. The host end is deleted by name too, in case the pair was half made.
    for (const args of [
      ['netns', 'del', ns],
      ['link', 'del', hostIf],
    ]) {
      try {
        run('ip', args);
      } catch {
        // Already gone.
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    run('ip', ['netns', 'add', ns]);
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`ip netns add: ${errorText(error)}`);
  }
  try {
    run('ip', ['link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf]);
    run('ip', ['link', 'set', nsIf, 'netns', ns]);
    run('ip', ['link', 'set', hostIf, 'gso_max_segs', '1']);
    inNs(ns, 'ip', ['link', 'set', nsIf, 'gso_max_segs', '1']);
    run('ip', ['addr', 'add', `${hostAddr}/24`, 'dev', hostIf]);
    run('ip', ['link', 'set', hostIf, 'up']);
    inNs(ns, 'ip', ['addr', 'add', `${nsAddr}/24`, 'dev', nsIf]);
    inNs(ns, 'ip', ['link', 'set', nsIf, 'up']);
    inNs(ns, 'ip', ['link', 'set', 'lo', 'up']);
  } catch (error) {
    destroy();
    throw new Error(`setting up the veth pair: ${errorText(error)}`);
  }

  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  const chromiumWrapper = path.join(dir, 'chromium-in-netns');
  fs.writeFileSync(chromiumWrapper, `#!/bin/sh\nexec ip netns exec '${ns}' '${chromium}' "$@"\n`, {
    mode: 0o755,
  });

  // Once the link is gone (a signal's teardown), a run still finishing changes nothing.
  const setLoss = (percent: number) => {
    if (!destroyed) inNs(ns, 'nft', ['-f', '-'], lossRules(ns, nsIf, percent));
  };
  return {
    ns,
    hostAddr,
    chromiumWrapper,
    setLoss,
    downloadedBytes: () => Number(fs.readFileSync(`/sys/class/net/${hostIf}/statistics/tx_bytes`, 'utf8')),
    shape({ rateKbit, upRateKbit, rttMs, lossPercent }) {
      if (destroyed) return;
      run('tc', ['qdisc', 'replace', 'dev', hostIf, ...tbf(rateKbit)]);
      inNs(ns, 'tc', ['qdisc', 'replace', 'dev', nsIf, ...tbf(upRateKbit ?? rateKbit)]);
      // The TCP connections that cross the pair (relay to server) have a round trip under a millisecond: the
      // delay is added above them, by the relay. Their retransmission timeout would be Linux's minimum, 200 ms;
      // on the real path it is the round trip plus that. Set per route, for this subnet only.
      const rtoMin = `${Math.round(rttMs + 200)}ms`;
      run('ip', ['route', 'replace', subnetCidr, 'dev', hostIf, 'src', hostAddr, 'rto_min', rtoMin]);
      inNs(ns, 'ip', ['route', 'replace', subnetCidr, 'dev', nsIf, 'src', nsAddr, 'rto_min', rtoMin]);
      setLoss(lossPercent);
    },
    destroy,
  };
}
