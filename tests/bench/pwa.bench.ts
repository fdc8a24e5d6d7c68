// The PWA shell on the real built app: what the home route costs to download (gzipped, from dist), the
// Lighthouse mobile scores of the home and discover routes, and how fast the shell renders on an offline
// reload (service worker warm). Needs `npm run build` first (dist/ and dist/.vite/manifest.json).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import lighthouse from 'lighthouse';
import { chromium, devices } from 'playwright';
import { AGE_CONFIRM_BUTTON, confirmAgeOnce } from '../e2e/age-gate';
import { chromiumLaunchOptions } from '../e2e/browser';
import { startServer } from '../e2e/server';

const root = path.resolve(import.meta.dirname, '../..');
const dist = path.join(root, 'dist');
const JS_BUDGET_KB = 120;
// Issue 34: React 19's react-dom is 22 KB gzipped more than 18's; the goal moved from 100 to 110 with it.
const JS_GOAL_KB = 110;

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** Initial JS and CSS of `/`: the entry with its static imports, and the home route's lazy chunk with its own. */
async function bundleFigures(): Promise<Record<string, string>> {
  const manifest = JSON.parse(await fs.readFile(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const files = new Set<string>();
  const walk = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const dep of chunk.imports ?? []) walk(dep);
  };
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!entryKey) throw new Error('no entry in dist/.vite/manifest.json: run npm run build');
  walk(entryKey);
  const shellFiles = new Set(files);
  walk('src/features/feed/FeedScreen.tsx');
  const sizes = async (names: Iterable<string>, ext: string) => {
    let raw = 0;
    let gz = 0;
    for (const name of names) {
      // hls.js loads only where HLS is not native, after the first video is chosen: not initial.
      if (!name.endsWith(ext) || /(^|\/)hls-/.test(name)) continue;
      const bytes = await fs.readFile(path.join(dist, name));
      raw += bytes.length;
      gz += gzipSync(bytes, { level: 9 }).length;
    }
    return { raw, gz };
  };
  const page = path.join(dist, 'index.html');
  const html = {
    raw: (await fs.stat(page)).size,
    br: (await fs.stat(`${page}.br`)).size,
    gz: (await fs.stat(`${page}.gz`)).size,
  };
  const js = await sizes(files, '.js');
  const css = await sizes(files, '.css');
  const shellJs = await sizes(shellFiles, '.js');
  // The service worker registration (workbox-window) is imported after the first render.
  const registerKey = Object.keys(manifest).find((k) => k.endsWith('virtual:pwa-register'));
  const later = new Set<string>();
  const walkAll = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || later.has(chunk.file) || files.has(chunk.file)) return;
    later.add(chunk.file);
    for (const dep of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) walkAll(dep);
  };
  if (registerKey) walkAll(registerKey);
  const registration = await sizes(later, '.js');
  const verdict =
    js.gz <= JS_GOAL_KB * 1024
      ? 'within goal'
      : js.gz <= JS_BUDGET_KB * 1024
        ? 'within budget'
        : 'OVER BUDGET';
  return {
    [`home route initial JS, gzipped (budget ${JS_BUDGET_KB} KB, goal ${JS_GOAL_KB} KB; hls.js excluded)`]: `${kb(js.gz)} (${kb(js.raw)} raw) in ${[...files].filter((f) => f.endsWith('.js')).length} files: ${verdict}`,
    '  of which the shell (entry + static imports)': kb(shellJs.gz),
    '  service-worker registration, loaded after first render': kb(registration.gz),
    'home route initial CSS, gzipped': `${kb(css.gz)} (${kb(css.raw)} raw)`,
    // The first download of every visit the service worker does not serve, and of each update it installs.
    'index.html as sent (the build precompressed it)': `${kb(html.br)} brotli, ${kb(html.gz)} gzip (${kb(html.raw)} raw)`,
  };
}

/** Chromium with a DevTools port and a real profile (Lighthouse drives it; incognito would skew nothing here). */
async function launchDebuggableChromium(profile: string): Promise<{ port: number; child: ChildProcess }> {
  const options = chromiumLaunchOptions('browser');
  const executable = options.executablePath ?? chromium.executablePath();
  const child = spawn(
    executable,
    [
      ...(options.args ?? []),
      '--headless=new',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      '--no-first-run',
      '--no-default-browser-check',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not start:\n${err}`)), 30_000);
    child.stderr?.on('data', (d) => {
      err += d;
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`Chromium exited with ${code}:\n${err}`)));
  });
  return { port, child };
}

async function lighthouseFigures(baseUrl: string): Promise<Record<string, string>> {
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'shortcams-lh-'));
  const { port, child } = await launchDebuggableChromium(profile);
  const out: Record<string, string> = {};
  try {
    // A returning visitor (18+ confirmed once in this profile), but a cold start for every route: no
    // service worker, no caches, so the scores are those of a first load of the real screens, not the gate.
    const prepare = async (confirm: boolean) => {
      const cdpBrowser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
      const context = cdpBrowser.contexts()[0] ?? (await cdpBrowser.newContext());
      const page = await context.newPage();
      await page.goto(confirm ? baseUrl : 'about:blank');
      if (confirm) {
        await page.getByRole('button', { name: AGE_CONFIRM_BUTTON }).click();
        await page.getByRole('navigation', { name: 'Main' }).waitFor();
        await page.waitForTimeout(500);
      }
      const cdp = await context.newCDPSession(page);
      await cdp.send('Storage.clearDataForOrigin', {
        origin: new URL(baseUrl).origin,
        storageTypes: 'service_workers,cache_storage',
      });
      await cdp.send('Network.clearBrowserCache');
      await page.close();
      await cdpBrowser.close();
    };
    await prepare(true);

    for (const [i, route] of ['/', '/discover'].entries()) {
      if (i > 0) await prepare(false);
      const result = await lighthouse(`${baseUrl}${route}`, {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
        // Keeps the 18+ answer; the service worker and caches were cleared above.
        disableStorageReset: true,
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${route}`);
      if (process.env.BENCH_LH_DIR)
        await fs.writeFile(
          path.join(process.env.BENCH_LH_DIR, `lh${route.replace(/\//g, '_')}.json`),
          JSON.stringify(result.lhr),
        );
      const { categories, audits } = result.lhr;
      const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
      out[`Lighthouse mobile ${route} (target 95+)`] =
        `performance ${score('performance')}, accessibility ${score('accessibility')}, best practices ${score('best-practices')}`;
      const metric = (id: string) => audits[id]?.displayValue ?? '?';
      // Lighthouse simulates a 4x slower CPU than the host's; on a shared 2-core host the host itself is slow,
      // so say how fast it was (Lighthouse's own benchmark index, ~1000+ on a normal desktop) and how busy.
      out[`  ${route} host`] =
        `benchmarkIndex ${Math.round(result.lhr.environment.benchmarkIndex)}, load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores`;
      out[`  ${route} metrics`] =
        `FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}`;
      // What costs points, so a score under target says where to look.
      const misses = Object.values(categories)
        .flatMap((c) => c.auditRefs.filter((r) => r.weight > 0).map((r) => audits[r.id]))
        .filter((a) => a && a.score !== null && a.score < 0.9)
        .map((a) => a?.id);
      if (misses.length > 0) out[`  ${route} audits under 0.9`] = misses.join(', ');
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await fs.rm(profile, { recursive: true, force: true });
  }
  return out;
}

/** Reload while offline, service worker warm: time until the shell (tab bar) and discover's first tile show. */
async function offlineShellFigures(baseUrl: string): Promise<Record<string, string>> {
  const storageState = await confirmAgeOnce(baseUrl);
  const browser = await chromium.launch(chromiumLaunchOptions('browser'));
  try {
    const context = await browser.newContext({ ...devices['Pixel 7'], storageState });
    // tsx's keepNames wraps functions passed to the page in a Node-only `__name` helper.
    await context.addInitScript('globalThis.__name = globalThis.__name || ((fn) => fn);');
    const page = await context.newPage();
    await page.goto(`${baseUrl}/discover`);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.locator('.carousel img').first().waitFor();
    await page.waitForTimeout(1000);
    await context.setOffline(true);
    const shell: number[] = [];
    const content: number[] = [];
    const fcp: number[] = [];
    for (let i = 0; i < 7; i++) {
      await page.reload({ waitUntil: 'commit' });
      const t = await page.evaluate(
        () =>
          new Promise<[number, number, number]>((resolve) => {
            let shellAt = 0;
            const tick = () => {
              const now = performance.now();
              if (!shellAt && document.querySelector('nav[aria-label="Main"]')) shellAt = now;
              const img = document.querySelector<HTMLImageElement>('.carousel img');
              if (shellAt && img?.complete && img.naturalWidth > 0) {
                const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
                resolve([shellAt, now, paint]);
              } else requestAnimationFrame(tick);
            };
            tick();
          }),
      );
      shell.push(t[0]);
      content.push(t[1]);
      fcp.push(t[2]);
    }
    return {
      'offline reload, warm service worker (median of 7, Pixel 7 emulation, no CPU throttling)': `first paint ${median(fcp).toFixed(0)} ms, shell (tab bar) ${median(shell).toFixed(0)} ms, discover with a cached thumbnail ${median(content).toFixed(0)} ms`,
    };
  } finally {
    await browser.close();
  }
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args?: { name?: string; data?: { url?: string } };
}

/**
 * Blocking time of a cold load of `/` measured in the browser, not simulated: Lighthouse's TBT swings from
 * 0.6 to 2 s between runs on this host, too much to tell a change from noise. Pixel 7 emulation, the CPU
 * throttled 4x (as Lighthouse simulates), no service worker; one trace per load. Figure: the time past 50 ms
 * of every main-thread task from first contentful paint to 8 s, and what the longest tasks were doing.
 */
const TRACES = 5;

async function blockingTimeFigures(baseUrl: string): Promise<Record<string, string>> {
  const storageState = await confirmAgeOnce(baseUrl);
  const browser = await chromium.launch(chromiumLaunchOptions('browser'));
  const runs: number[] = [];
  const kinds = new Map<string, number>();
  try {
    for (let i = 0; i < TRACES; i++) {
      const context = await browser.newContext({
        ...devices['Pixel 7'],
        storageState,
        serviceWorkers: 'block',
      });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await browser.startTracing(page, {
        // RunTask (every task) is in the disabled-by-default category; v8.execute has module evaluation.
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'loading'],
      });
      await page.goto(baseUrl);
      await page.waitForTimeout(8000);
      const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
      await context.close();
      const events = trace.traceEvents;
      // The page's main thread: the renderer thread that ran the app's scripts.
      const threadNames = new Map(
        events.filter((e) => e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args?.name]),
      );
      const main = events.find(
        (e) =>
          threadNames.get(`${e.pid}:${e.tid}`) === 'CrRendererMain' && e.args?.data?.url?.startsWith(baseUrl),
      );
      const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === main?.pid);
      if (!main || !fcp) throw new Error('no main thread or first paint in the trace');
      const mine = events
        .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X')
        .sort((a, b) => a.ts - b.ts);
      const long = mine.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > 50_000 && e.ts >= fcp.ts);
      runs.push(long.reduce((sum, task) => sum + (task.dur ?? 0) / 1000 - 50, 0));
      for (const task of long) {
        const end = task.ts + (task.dur ?? 0);
        let covered = task.ts;
        for (const e of mine) {
          if (e === task || e.ts < covered || e.ts >= end) continue;
          const kind = kindOf(e.name);
          if (!kind) continue;
          kinds.set(kind, (kinds.get(kind) ?? 0) + (e.dur ?? 0) / 1000 / TRACES);
          covered = e.ts + (e.dur ?? 0);
        }
      }
    }
  } finally {
    await browser.close();
  }
  const sorted = [...runs].sort((a, b) => a - b);
  const top = [...kinds].sort((a, b) => b[1] - a[1]).map(([k, ms]) => `${k} ${ms.toFixed(0)} ms`);
  return {
    [`main-thread blocking after first paint, cold load of / (Pixel 7, CPU 4x, ${TRACES} traces; Lighthouse TBT goal for 95: 200 ms)`]: `median ${median(runs).toFixed(0)} ms (${sorted.map((r) => r.toFixed(0)).join(', ')})`,
    '  inside those long tasks, per load': top.join(', '),
  };
}

/** The few kinds of work a long task is made of; nested events of one kind are counted once, at the top. */
function kindOf(name: string): string | undefined {
  if (name === 'v8.evaluateModule' || name === 'v8.compileModule' || name === 'EvaluateScript')
    return 'module evaluation';
  if (name === 'FunctionCall' || name === 'RunMicrotasks') return 'script (React renders, callbacks)';
  if (name === 'UpdateLayoutTree' || name === 'Layout') return 'style and layout';
  if (name === 'Paint' || name === 'PrePaint' || name === 'Layerize' || name === 'Commit') return 'paint';
  if (name === 'ParseHTML' || name === 'ParseAuthorStyleSheet') return 'parsing HTML and CSS';
  return undefined;
}

export async function pwaBench(): Promise<Record<string, string>> {
  const out = await bundleFigures();
  // BENCH_BASE_URL measures a server that is already running (serving this dist/) instead of a fresh one.
  const external = process.env.BENCH_BASE_URL;
  const server = external ? undefined : await startServer({ env: { DEMO_VIDEOS: '12' }, timeoutMs: 300_000 });
  const url = external ?? server?.url ?? '';
  try {
    Object.assign(out, await offlineShellFigures(url));
    Object.assign(out, await blockingTimeFigures(url));
    Object.assign(out, await lighthouseFigures(url));
  } finally {
    await server?.stop();
  }
  return out;
}
