// `npm test`: every check — typecheck, lint, knip (unused files, exports and packages), unit, the build, API on
// PGlite, API on PostgreSQL when DATABASE_URL is set, the scale suite when SCALE_TESTS is set, browser e2e —
// and one closing line `N passed, N failed` that sums them all.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'shortcams-test-'));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const totals = { passed: 0, failed: 0 };
const lines = [];
const started = performance.now();
const seconds = (since) => Math.round((performance.now() - since) / 1000);

/**
 * Runs one phase and resolves with whether it passed, the seconds it took and its output. `held`: the output
 * is kept and printed whole when the phase ends, so that phases running side by side do not interleave.
 */
function run(label, cmd, args, { env = process.env, held = false } = {}) {
  const since = performance.now();
  if (!held) console.log(`\n=== ${label}`);
  const child = spawn(cmd, args, { cwd: root, env, stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  const output = [];
  child.stdout?.on('data', (d) => output.push(d));
  child.stderr?.on('data', (d) => output.push(d));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      if (held) process.stdout.write(`\n=== ${label}\n${Buffer.concat(output)}`);
      resolve({ ok: code === 0, took: seconds(since) });
    });
  });
}

/**
 * A check that is one pass or one failure (typecheck, lint, knip, the build); true when it passed. Several
 * commands run side by side and pass together.
 */
async function check(label, commands, opts) {
  const outcomes = await Promise.all(commands.map(([cmd, ...args]) => run(label, cmd, args, opts)));
  const ok = outcomes.every((o) => o.ok);
  totals[ok ? 'passed' : 'failed'] += 1;
  lines.push(`${label}: ${ok ? 'ok' : 'FAILED'} (${Math.max(...outcomes.map((o) => o.took))} s)`);
  return ok;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** A suite counted test by test from its JSON report; a crash with no report counts as one failure. */
async function suite(label, cmd, args, reportFile, count, opts) {
  const { ok, took } = await run(label, cmd, args, opts);
  const report = readJson(reportFile);
  const counted = report ? count(report) : { passed: 0, failed: 1 };
  if (!ok && counted.failed === 0) counted.failed = 1;
  totals.passed += counted.passed;
  totals.failed += counted.failed;
  lines.push(`${label}: ${counted.passed} passed, ${counted.failed} failed (${took} s)`);
}

const vitestCount = (r) => ({
  passed: r.numPassedTests,
  failed: r.numFailedTests + (r.numPendingTests ?? 0),
});
/** One vitest run of the named projects (a list: the API suite is two, see vite.config.ts). */
const vitest = (label, projects, opts) => {
  const file = path.join(reports, `${label.replace(/\W+/g, '-')}.json`);
  return suite(
    label,
    bin('vitest'),
    [
      'run',
      ...[projects].flat().flatMap((project) => ['--project', project]),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${file}`,
    ],
    file,
    vitestCount,
    opts,
  );
};

const withoutDb = { ...process.env };
delete withoutDb.DATABASE_URL;

// Side by side: tsc is one thread, the unit suite mostly waits on its timers, and the build is seconds. One
// after the other they took 82 s, most of it with a core idle.
// The programs of `npm run typecheck` at once (the app's and the server's take 9 and 14 s), read from the
// script itself so that the two cannot drift apart.
const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const typecheck = scripts.typecheck.split('&&').map((command) => {
  const [name, ...args] = command.trim().split(/\s+/);
  return [bin(name), ...args];
});
const held = { held: true };
const [, , , , built] = await Promise.all([
  check('typecheck', typecheck, held),
  check('lint', [['npm', 'run', '--silent', 'lint']], held),
  check('knip', [['npm', 'run', '--silent', 'knip']], held),
  vitest('unit', 'unit', { env: withoutDb, held: true }),
  check('build', [[bin('vite'), 'build', '--logLevel', 'warn']], held),
]);
const api = ['api', 'api-mocks'];
await vitest('api (PGlite)', api, { env: withoutDb });
if (process.env.DATABASE_URL) await vitest('api (PostgreSQL)', api);
// Several server processes, Redis, an S3 stand-in and nginx for a few minutes: CI's, not every developer's.
if (process.env.SCALE_TESTS) await vitest('scale', 'scale');

if (built) {
  const file = path.join(reports, 'e2e.json');
  await suite(
    'e2e',
    bin('playwright'),
    ['test', '-c', 'tests/e2e/playwright.config.ts'],
    file,
    (r) => ({
      passed: r.stats.expected + (r.stats.flaky ?? 0),
      // A skipped browser test is a test that did not prove anything: it counts against the run.
      failed: r.stats.unexpected + (r.stats.skipped ?? 0),
    }),
    { env: { ...withoutDb, PLAYWRIGHT_JSON_OUTPUT_NAME: file } },
  );
}

console.log('\n=== summary');
for (const line of lines) console.log(`  ${line}`);
console.log(`  in all: ${seconds(started)} s`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed === 0 ? 0 : 1);
