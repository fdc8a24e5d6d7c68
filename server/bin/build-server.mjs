// Compiles the server into one ES module, build/server/main.mjs, so that a start runs JavaScript instead of
// compiling TypeScript through tsx first (issue 32: a restarted node answers within a second; tsx took a
// quarter of the start). Packages stay in node_modules (`packages: 'external'`): the bundle holds only our
// code and src/contract, which the server shares with the PWA. `npm start` runs this when the server's
// sources are newer than the bundle (server/bin/start.mjs), and so do the browser and scale tests, which run
// the server as users do; `npm run dev` and the API tests run the TypeScript through tsx.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '../..');
export const serverOut = path.join(root, 'build', 'server');
/** What the bundle is made of: a newer file here means a stale bundle. */
export const serverSources = ['server', 'src/contract', 'package-lock.json', 'tsconfig.node.json'];

/** The newest modification time under `relative` (a file or a folder, walked whole); 0 if absent. */
export function newestMtime(relative) {
  const full = path.join(root, relative);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(full, { recursive: true })) {
    newest = Math.max(newest, fs.statSync(path.join(full, String(entry))).mtimeMs);
  }
  return newest;
}

const stale = (bundle) => {
  const bundledAt = fs.existsSync(bundle) ? fs.statSync(bundle).mtimeMs : 0;
  return Math.max(...serverSources.map(newestMtime)) > bundledAt;
};

/**
 * Builds the bundle if a source is newer than it; its path. Processes that start servers at the same time (two
 * test files, two `npm start`s) build one after the other: the second finds the bundle fresh and keeps it,
 * rather than swapping it while the first one's server reads it.
 */
export async function ensureServerBuilt() {
  const bundle = path.join(serverOut, 'main.mjs');
  if (!stale(bundle)) return bundle;
  const lock = `${serverOut}.lock`;
  fs.mkdirSync(path.dirname(serverOut), { recursive: true });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      // A build that died holding the lock does not block every start after it.
      if (Date.now() > deadline) fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    if (stale(bundle)) await buildServer();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
  return bundle;
}

export async function buildServer() {
  // Built beside and swapped in whole: a server starting meanwhile never reads half a bundle.
  const next = `${serverOut}.${process.pid}`;
  fs.rmSync(next, { recursive: true, force: true });
  await build({
    entryPoints: [path.join(root, 'server/main.ts')],
    outfile: path.join(next, 'main.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    // For NODE_OPTIONS=--enable-source-maps, which names the TypeScript lines in stack traces. Not on by
    // default: reading the map costs a start 80 ms.
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  // The migrator reads its SQL files beside the module (server/db/client.ts: `./migrations`).
  fs.cpSync(path.join(root, 'server/db/migrations'), path.join(next, 'migrations'), { recursive: true });
  fs.rmSync(serverOut, { recursive: true, force: true });
  try {
    fs.renameSync(next, serverOut);
  } catch {
    // Another start built the same sources at the same moment and swapped its bundle in first.
    fs.rmSync(next, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildServer();
