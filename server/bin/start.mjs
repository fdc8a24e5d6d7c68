// `npm start`: build the PWA and the server (build/server/main.mjs, see build-server.mjs) if their sources
// changed since their last build, then run the compiled server.
//
// Signals: `npm start` runs this file through `sh -c`, and npm forwards SIGINT/SIGTERM to that shell only;
// dash dies on them without passing them on, which left this process and the server running. The script
// in package.json therefore `exec`s node (the shell becomes this process, so npm's signal reaches it), every
// signal is passed to the current child (the build or the server), and when the parent that started us
// goes away without a signal (npm killed with SIGKILL), the server is stopped as if it had been signalled.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureServerBuilt, newestMtime } from './build-server.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const sources = ['src', 'sw', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'];

/** The child that a signal must reach: the build while it runs, then the server. */
let child;
let stopping;
const stop = (signal) => {
  stopping ??= signal;
  child?.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(signal));

// Orphaned: the parent (npm, or the shell it started) is gone. Only under npm: a server started with
// `nohup node server/bin/start.mjs &` is meant to outlive its shell.
if (process.env.npm_lifecycle_event) {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop('SIGTERM');
  }, 500).unref();
}

function run(args, env = process.env) {
  child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env });
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
}

// DIST_DIR names a PWA built elsewhere: served as it is, nothing to build here.
const builtIndex = path.join(root, 'dist', 'index.html');
const builtAt = fs.existsSync(builtIndex) ? fs.statSync(builtIndex).mtimeMs : 0;
if (!process.env.DIST_DIR && Math.max(...sources.map(newestMtime)) > builtAt) {
  console.log('[shortcams] building the PWA…');
  const build = await run([path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn']);
  if (stopping) process.exit(1);
  if (build.code !== 0) process.exit(build.code ?? 1);
}
if (stopping) process.exit(1);

const bundle = await ensureServerBuilt();
if (stopping) process.exit(1);

// NODE_COMPILE_CACHE: from Node 22.1 on, the compiled code of the server's modules is kept between starts
// (Node 20 ignores it).
const server = await run([bundle], {
  ...process.env,
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? path.join(root, 'build', 'compile-cache'),
});
process.exit(server.code ?? (server.signal ? 1 : 0));
