// `npm test`: every check in sequence — typecheck, lint, knip (unused files, exports and packages), unit,
// API on PGlite, API on PostgreSQL when DATABASE_URL is set, the scale suite when SCALE_TESTS is set, browser
// e2e — and one closing line `N passed, N failed` that sums them all.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'shortcams-test-'));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const totals = { passed: 0, failed: 0 };
const lines = [];

/** Seconds each phase took, shown in the summary: where the run's time goes is the first thing to look at. */
const took = new Map();

function run(label, cmd, args, env = process.env) {
  console.log(`\n=== ${label}`);
  const started = performance.now();
  const ok = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env }).status === 0;
  took.set(label, Math.round((performance.now() - started) / 1000));
  return ok;
}
/** A summary line for the phase `label` ran, with its time. */
const summarise = (label, outcome) => lines.push(`${label}: ${outcome} (${took.get(label) ?? 0} s)`);

/** A check that is one pass or one failure (typecheck, lint, knip, the build); true when it passed. */
function check(label, cmd, args) {
  const ok = run(label, cmd, args);
  totals[ok ? 'passed' : 'failed'] += 1;
  summarise(label, ok ? 'ok' : 'FAILED');
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
function suite(label, cmd, args, reportFile, count, env) {
  const ok = run(label, cmd, args, env);
  const report = readJson(reportFile);
  const counted = report ? count(report) : { passed: 0, failed: 1 };
  if (!ok && counted.failed === 0) counted.failed = 1;
  totals.passed += counted.passed;
  totals.failed += counted.failed;
  summarise(label, `${counted.passed} passed, ${counted.failed} failed`);
}

const vitestCount = (r) => ({
  passed: r.numPassedTests,
  failed: r.numFailedTests + (r.numPendingTests ?? 0),
});
/** One vitest run of the named projects (a list: the API suite is two, see vite.config.ts). */
const vitest = (label, projects, env) => {
  const file = path.join(reports, `${label.replace(/\W+/g, '-')}.json`);
  suite(
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
    env,
  );
};

const withoutDb = { ...process.env };
delete withoutDb.DATABASE_URL;

check('typecheck', 'npm', ['run', '--silent', 'typecheck']);
check('lint', 'npm', ['run', '--silent', 'lint']);
check('knip', 'npm', ['run', '--silent', 'knip']);
vitest('unit', 'unit', withoutDb);
const api = ['api', 'api-mocks'];
vitest('api (PGlite)', api, withoutDb);
if (process.env.DATABASE_URL) vitest('api (PostgreSQL)', api, process.env);
// Several server processes, Redis, an S3 stand-in and nginx for a few minutes: CI's, not every developer's.
if (process.env.SCALE_TESTS) vitest('scale', 'scale', process.env);

if (check('build', bin('vite'), ['build', '--logLevel', 'warn'])) {
  const file = path.join(reports, 'e2e.json');
  suite(
    'e2e',
    bin('playwright'),
    ['test', '-c', 'tests/e2e/playwright.config.ts'],
    file,
    (r) => ({
      passed: r.stats.expected + (r.stats.flaky ?? 0),
      // A skipped browser test is a test that did not prove anything: it counts against the run.
      failed: r.stats.unexpected + (r.stats.skipped ?? 0),
    }),
    { ...withoutDb, PLAYWRIGHT_JSON_OUTPUT_NAME: file },
  );
}

console.log('\n=== summary');
for (const line of lines) console.log(`  ${line}`);
console.log(`  in all: ${[...took.values()].reduce((a, b) => a + b, 0)} s`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed === 0 ? 0 : 1);
