// What the benches on a shaped link share (`npm run bench -- network`, and `-- "first frame vs bare video"`):
// a network namespace with its veth pair (link.ts), a copy of the build with the bench's bare pages written
// into it, the real server on the host end of the pair, the relay inside the namespace for each profile
// (relay.ts), Chromium launched inside the namespace, and the 18+ answer carried to the page's origin there.
//
//   Chromium ─ 127.0.0.1:8080 (namespace loopback) ─ relay: round trip ─ veth: rate, loss ─ server
//
// Everything the page and its service worker fetch crosses that path: no route interception (which turns
// Chromium's HTTP cache off for its context) and no DevTools throttling (which leaves a service worker's own
// fetches untouched). The namespace, relay, browser, server and temporary folders go at the end, on an error
// and on SIGINT/SIGTERM.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from 'playwright';
import { quietAds } from '../../e2e/ads';
import { confirmAgeOnce, type StorageState } from '../../e2e/age-gate';
import { freePort, startServer } from '../../e2e/server';
import { createLink, type Link, linkUnavailable } from './link';
import { type RunningRelay, spawnRelay } from './relay';

/** The relay's port on the namespace's loopback: the page's origin is http://127.0.0.1:8080 (see relay.ts). */
const RELAY_PORT = 8080;
export const ORIGIN = `http://127.0.0.1:${RELAY_PORT}`;

export interface LinkProfile {
  name: string;
  rttMs: number;
  jitterMs: number;
  /** Download rate, kbit/s (and the upload's, unless upRateKbit is given). */
  rateKbit: number;
  upRateKbit?: number;
  lossPercent: number;
}

export interface Harness {
  browser: Browser;
  /** The 18+ answer, for the page's origin; no cookies (each context is a new guest). */
  storageState: StorageState;
  link: Link;
  /** The server from the host, not across the link (for the bench's own look-ups). */
  serverDirect: string;
  /** The copy of the build the server sends: a bench may write more pages into it while it runs. */
  served: string;
  /** Shapes the link for the profile and starts its relay (the one before stopped). */
  applyProfile(profile: LinkProfile): Promise<void>;
  /** Stops the relay, if one runs; answers its counters (a JSON line). */
  stopRelay(): Promise<string | undefined>;
}

export interface HarnessOptions {
  /** As the skip message names the bench: "the network bench". */
  title: string;
  /** In the temporary folders' names: shortcams-<label>-dist-…. */
  label: string;
  /** Seeded on a first start (a reused BENCH_DATA_DIR keeps its own). */
  demoVideos: number;
  /** The e2e suite's ads file (the shipped placements without the feed's own formats) instead of the shipped one. */
  quietAds: boolean;
  /** Writes the bench's pages into the copy of the build, before the server starts. */
  prepare?: (served: string) => void;
}

/** Steps to undo, newest first; run at the end, on an error, and on SIGINT/SIGTERM. */
class Teardown {
  private steps: [string, () => unknown][] = [];
  add(name: string, step: () => unknown) {
    this.steps.push([name, step]);
  }
  async run() {
    const steps = this.steps.reverse();
    this.steps = [];
    for (const [name, step] of steps) {
      try {
        await step();
      } catch (error) {
        console.error(`  cleanup, ${name}: ${(error as Error).message}`);
      }
    }
  }
}

/** This process's children that are the app server (tests/e2e/server.ts spawns build/server/main.mjs). */
function serverChildren(): number[] {
  const pids: number[] = [];
  try {
    for (const task of fs.readdirSync(`/proc/${process.pid}/task`)) {
      const children = fs.readFileSync(`/proc/${process.pid}/task/${task}/children`, 'utf8');
      for (const pid of children.split(' ').filter(Boolean).map(Number)) {
        const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        if (/server[/\\]main\.m?[jt]s/.test(cmdline)) pids.push(pid);
      }
    }
  } catch {
    // Gone meanwhile, or no /proc: nothing to stop.
  }
  return pids;
}

/**
 * Sets the link, server and browser up, runs `body` with them, and removes them all (also on an error or a
 * signal) before answering its result. Where the machine cannot make the link (not root, no namespaces,
 * no tc or nft) it says so and answers `{ skipped }` instead.
 */
export async function withHarness<T>(
  opts: HarnessOptions,
  body: (harness: Harness) => Promise<T>,
): Promise<{ skipped: string } | { result: T }> {
  const unavailable = linkUnavailable();
  if (unavailable) {
    console.log(`  skipped: ${opts.title} ${unavailable}`);
    return { skipped: unavailable };
  }
  let link: Link;
  try {
    link = createLink();
  } catch (error) {
    const why = `network namespaces are not allowed here (${(error as Error).message.split('\n')[0]})`;
    console.log(`  skipped: ${why}`);
    return { skipped: why };
  }
  const teardown = new Teardown();
  teardown.add('namespace', () => link.destroy());
  let relay: RunningRelay | undefined;
  /** Folders of this run only (the build copy, the ads file, a fresh demo's data): removed at the end. */
  const scratch: string[] = [];
  const reusedData = process.env.BENCH_DATA_DIR;
  // Whatever happens, the namespace, the relay and the server do not outlive the bench. The server is found
  // among this process's own children (it may still be seeding, before startServer has answered) and asked to
  // stop; the browser is closed by the teardown (Playwright kills it itself if the process exits first).
  const stopNow = () => {
    relay?.kill();
    link.destroy();
    for (const pid of serverChildren()) process.kill(pid, 'SIGTERM');
  };
  const onExit = () => {
    stopNow();
    for (const dir of scratch) {
      try {
        fs.rmSync(dir, { recursive: true, force: true });
      } catch {
        // A server still stopping may write into its data folder: it stays behind.
      }
    }
  };
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    // tsx relays the terminal's SIGINT a second time: one teardown.
    if (stopping) return;
    stopping = true;
    console.error(`\n  ${signal}: removing namespace ${link.ns}, the relay, the browser and the server`);
    // tsx, the runner, gives this process some 30 ms to acknowledge the signal over IPC and kills it
    // outright if its event loop is busy then: the synchronous commands wait a moment.
    setTimeout(() => {
      stopNow();
      void teardown.run().finally(() => process.exit(130));
    }, 100);
    setTimeout(() => process.exit(130), 30_000).unref();
  };
  process.once('exit', onExit);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    // The build served: DIST_DIR or dist/, copied with the bench's pages added (the shared build stays as it is).
    const root = path.resolve(import.meta.dirname, '../../..');
    const dist = path.resolve(process.env.DIST_DIR ?? path.join(root, 'dist'));
    if (!fs.existsSync(path.join(dist, 'index.html')))
      throw new Error(`no build in ${dist} (vite build first)`);
    const tmp = (prefix: string) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
      scratch.push(dir);
      return dir;
    };
    teardown.add('scratch folders', () => {
      for (const dir of scratch.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    });
    const served = tmp(`shortcams-${opts.label}-dist-`);
    fs.cpSync(dist, served, { recursive: true });
    opts.prepare?.(served);

    // As the e2e suite's global setup: the shipped ads file without the feed's own formats (no pop, footer,
    // in-stream ad or message in the way of a swipe); the sidebar's tiles stay, and a phone does not show them.
    let adsFile: string | undefined;
    if (opts.quietAds) {
      adsFile = path.join(tmp(`shortcams-${opts.label}-ads-`), 'ads.json');
      fs.writeFileSync(adsFile, await quietAds());
    }

    const port = await freePort();
    console.error(
      `  starting the server on ${link.hostAddr}:${port} (a first start seeds ${opts.demoVideos} demo videos: minutes)`,
    );
    const server = await startServer({
      timeoutMs: 600_000,
      env: {
        // On the host end of the veth pair: the relay in the namespace reaches it across the shaped link.
        HOST: link.hostAddr,
        PORT: String(port),
        PUBLIC_URL: ORIGIN,
        DIST_DIR: served,
        ...(adsFile ? { ADS_FILE: adsFile } : {}),
        DATA_DIR: reusedData ?? tmp(`shortcams-${opts.label}-data-`),
        DEMO_VIDEOS: String(opts.demoVideos),
        // Every run is a new guest from the namespace's one address.
        GUESTS_PER_ADDRESS: '100000',
        GUEST_ACTIONS_PER_ADDRESS: '100000',
      },
    });
    teardown.add('server', () => server.stop());
    const serverDirect = `http://${link.hostAddr}:${port}`;

    // The 18+ answer, given once through the real gate (from the host, straight to the server), carried to
    // the page's origin in the namespace. Cookies stay behind: each run is a new guest.
    const confirmed = await confirmAgeOnce(serverDirect);
    const storageState: StorageState = {
      cookies: [],
      origins: confirmed.origins.map((o) => ({ ...o, origin: ORIGIN })),
    };

    const browser = await chromium.launch({
      executablePath: link.chromiumWrapper,
      // The teardown closes it, after the runs or on a signal (Playwright would exit the process first).
      handleSIGINT: false,
      handleSIGTERM: false,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--autoplay-policy=no-user-gesture-required',
      ],
    });
    teardown.add('browser', () => browser.close());

    const stopRelay = async () => {
      const running = relay;
      relay = undefined;
      return running?.stop();
    };
    const applyProfile = async (profile: LinkProfile) => {
      await stopRelay();
      link.shape({
        rateKbit: profile.rateKbit,
        upRateKbit: profile.upRateKbit,
        rttMs: profile.rttMs,
        lossPercent: profile.lossPercent,
      });
      relay = await spawnRelay(link.ns, {
        port: RELAY_PORT,
        targetHost: link.hostAddr,
        targetPort: port,
        rttMs: profile.rttMs,
        jitterMs: profile.jitterMs,
      });
    };
    teardown.add('relay', () => relay?.stop());

    return {
      result: await body({ browser, storageState, link, serverDirect, served, applyProfile, stopRelay }),
    };
  } finally {
    // After a signal the handler owns the teardown and ends the process: the runs' own errors (the link
    // gone under them) must not end it first.
    if (stopping) await new Promise(() => undefined);
    await teardown.run();
    process.removeListener('exit', onExit);
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}
