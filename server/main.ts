import net from 'node:net';
import { buildApp } from './app';
import { answerCommand } from './cli';
import { type OperatorSocket, operatorSocketPath, startOperatorSocket } from './operator';
import { openRuntime } from './runtime';
import { demoLogins, seedDemo } from './seed';

const started = performance.now();
/** How long after listening the workers and database chores start. */
const BACKGROUND_AFTER_MS = 1000;
// The workers and chores start once the server listens: the first request does not wait for them.
const runtime = await openRuntime({}, { deferBackground: true });
const { config } = runtime;
const app = await buildApp(runtime);
// PGlite: this process alone has the database open, so `npm run admin` sends its commands here. PostgreSQL
// takes the CLI's own connection.
let operator: OperatorSocket | undefined;
if (runtime.database.kind === 'pglite' && !config.databaseUrl) {
  operator = await startOperatorSocket(
    operatorSocketPath(config.dataDir),
    (command) => answerCommand(runtime, command),
    (message) => app.log.warn(message),
  );
}

/**
 * A rolling restart must fail no request. Readiness says no, every answer closes its connection, and the
 * listener stops taking connections at once: a proxy's next connect is refused, which it passes to another
 * node (even a POST: nothing was sent). The connections already open are not cut (Node's server.close()
 * would also close the idle ones, racing a proxy that is writing a request into one): each finishes what it
 * carries, a request in flight or a tus PATCH included, and goes. After DRAIN_DELAY_MS (keep it longer than
 * the proxy's upstream keep-alive, so that it has dropped its idle ones) what is left is closed. A connection
 * still in the listen queue when the listener closes is reset by the kernel, which no code here can prevent:
 * the README's rolling deploy says how a proxy makes that rare, or rules it out.
 */
async function drain() {
  app.draining = true;
  if (config.drainDelayMs <= 0) return;
  const drained = new Promise<void>((resolve) =>
    net.Server.prototype.close.call(app.server, () => resolve()),
  );
  await Promise.race([drained, new Promise((resolve) => setTimeout(resolve, config.drainDelayMs))]);
}

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info(`${signal}: draining`);
  const force = setTimeout(() => process.exit(1), config.drainDelayMs + 30_000).unref();
  try {
    await drain();
    await operator?.close();
    await app.close();
    await runtime.close();
    clearTimeout(force);
    process.exit(0);
  } catch (err) {
    console.error(err);
    process.exit(1);
  }
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.port, host: config.host });
const url = config.publicUrl;
const log = (msg: string) => console.log(`[shortcams] ${msg}`);
log(
  `listening on ${url} in ${((performance.now() - started) / 1000).toFixed(2)}s (database: ${runtime.database.kind}, data: ${config.dataDir})`,
);
// A second later: the chores' queries would otherwise queue before the first requests on PGlite's one
// connection (100 ms of a restarted node's first answer, `npm run bench -- startup`).
await new Promise((resolve) => setTimeout(resolve, BACKGROUND_AFTER_MS));
if (!closing) await runtime.startBackground();

/** The demo's first start: seeds, then waits for its videos. False when a shutdown came first. */
async function seedAndWait(): Promise<boolean> {
  if (!config.seedDemo) return true;
  const pending = await seedDemo(
    { database: runtime.database, storage: runtime.storage, jobs: runtime.jobs, log },
    { videoCount: config.demoVideoCount },
  );
  if (pending === 0) return true;
  log(`generating ${pending} demo videos with ffmpeg (the feed fills as they finish)…`);
  await runtime.jobs.idle('demo-media');
  return true;
}

// A shutdown while the demo is seeded closes the database and the job queue under it: not an error.
const seeded = await seedAndWait().catch((err: unknown) => {
  if (closing) return false;
  throw err;
});
if (seeded) {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(`ready in ${seconds}s: open ${url}`);
  if (config.seedDemo) {
    for (const l of demoLogins()) log(`demo ${l.role}: ${l.email} / ${l.password}`);
  }
}
