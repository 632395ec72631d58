// Runs the packages' tests through turbo, then sums the result files the packages write to
// .test-results/ into the closing line CI reads: "N passed, N failed". A package with a test
// script that wrote no result (its build, type-check or runner failed) counts as one failure.
//
//   node scripts/run-tests.mjs           every package but the long proofs (`pnpm test`, the README's test command)
//   node scripts/run-tests.mjs --long    the long proofs only (`pnpm test:long`)
//   node scripts/run-tests.mjs --total   runs nothing: the closing line over every package's results (CI's last line)
//
// Other arguments go to `turbo run test` (e.g. `--filter=@mcp-resilience/client`).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const resultsDir = join(root, '.test-results');

/**
 * The long proofs: `.ci/run` runs them after the README's test command, as a step of their own.
 * Each runs hundreds of processes or measures, and proves what no other test does.
 */
const LONG = new Set([
  // `mcp-chaos check` on 13 clients × 24 scenarios: 312 client processes, a third of all the CPU.
  '@mcp-resilience/churn-scoreboard',
  // The benchmarks' quick run and the size budgets: thousands of calls, plain and through the engine.
  '@mcp-resilience/bench',
  // The release rehearsed on a real npm registry (Verdaccio): every package published, then installed with npm.
  '@mcp-resilience/registry',
]);

const args = process.argv.slice(2);
const mode = args.includes('--long') ? 'long' : args.includes('--total') ? 'total' : 'main';
const turboArgs = args.filter((a) => a !== '--long' && a !== '--total');

/** Workspace packages (pnpm-workspace.yaml) that have tests: name and the file their results go to. */
function testedPackages() {
  const list = /^packages:\n((?:  - \S+\n)+)/m.exec(readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8'))?.[1] ?? '';
  const dirs = [...list.matchAll(/^  - (\S+)$/gm)].flatMap(([, pattern]) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    return existsSync(join(root, parent)) ? readdirSync(join(root, parent)).map((d) => join(parent, d)) : [];
  });
  return dirs
    .map((dir) => join(root, dir, 'package.json'))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')))
    .filter((pkg) => pkg.scripts?.test)
    .map((pkg) => ({ name: pkg.name, file: join(resultsDir, `${pkg.name.replace(/^@/, '').replace('/', '__')}.json`) })); // as resultFileName in vitest.shared.ts
}

const selected = testedPackages().filter((pkg) => mode === 'total' || LONG.has(pkg.name) === (mode === 'long'));

let turboStatus = 0;
if (mode !== 'total') {
  for (const pkg of selected) rmSync(pkg.file, { force: true });
  const filters = mode === 'long' ? [...LONG].map((name) => `--filter=${name}`) : [...LONG].map((name) => `--filter=!${name}`);
  // Six packages at a time: most of a package's time is spent waiting (on its servers, its
  // runtimes, npm), and no test's verdict depends on how busy the machine is.
  const turbo = spawnSync('pnpm', ['exec', 'turbo', 'run', 'test', '--continue', '--concurrency=6', ...filters, ...turboArgs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
  });
  turboStatus = turbo.status ?? 1;
}

/** A stack frame of a dependency (vitest's runner, say), of Node or of no file: nothing a reader of the failure needs. */
const dependencyFrame = /^\s*at .*(node_modules|<anonymous>|node:internal)/;
/** The first lines of a failure message, without colour codes or dependencies' frames, each short enough for one log line. */
const linesOf = (text = '', count = 1) => text.replace(/\u001b\[[0-9;]*m/g, '').split('\n')
  .filter((line) => line.trim() !== '' && !dependencyFrame.test(line)).slice(0, count).map((line) => line.slice(0, 200));
/** The first failures are told in more lines (what a failure printed is all a CI log may keep of it), the rest in one each. */
const DETAILED_FAILURES = 3;
const DETAIL_LINES = 12;
let told = 0;
/** A failed test (or file): its line, and for the first few, the next lines of its message under it. */
function tell(where, message) {
  const [first = '', ...more] = linesOf(message, told++ < DETAILED_FAILURES ? DETAIL_LINES : 1);
  console.log(`  ✗ ${where}: ${first}`);
  for (const line of more) console.log(`    │ ${line}`);
}

let passed = 0;
let failed = 0;
const filtered = turboArgs.some((a) => a.startsWith('--filter'));
for (const { name, file } of selected) {
  const label = name.replace(/^@/, '').replace('/', '__');
  if (!existsSync(file)) {
    if (filtered) continue; // a run narrowed with --filter sums what it ran
    failed += 1;
    console.log(`${label.padEnd(36)} no results: its build, type-check or test runner failed`);
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  // A test file that failed to load has no failed test in it, but it failed.
  const brokenFiles = (report.testResults ?? []).filter(
    (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
  ).length;
  const packageFailed = (report.numFailedTests ?? 0) + brokenFiles;
  passed += report.numPassedTests ?? 0;
  failed += packageFailed;
  console.log(`${label.padEnd(36)} ${report.numPassedTests ?? 0} passed, ${packageFailed} failed`);
  // What failed, by name and first line of its message: the CI log may keep only the end of the run.
  for (const result of report.testResults ?? []) {
    const failures = (result.assertionResults ?? []).filter((a) => a.status === 'failed');
    const where = relative(root, result.name ?? '');
    if (failures.length === 0 && result.status === 'failed') tell(where, result.message);
    for (const a of failures) tell(`${where} › ${a.fullName}`, a.failureMessages?.[0]);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || turboStatus !== 0 ? 1 : 0);
