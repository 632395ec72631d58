// Runs every package's tests through turbo, then sums the result files the packages write to
// .test-results/ into the closing line CI reads: "N passed, N failed". A package with a test
// script that wrote no result (its build, type-check or runner failed) counts as one failure.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const resultsDir = join(root, '.test-results');
rmSync(resultsDir, { recursive: true, force: true });

// Three packages' tests at a time: CI's machines have 2 cores, and more at once only stretch the
// timing-dependent tests (SDK timeouts, idle budgets) of each without finishing sooner.
const turbo = spawnSync('pnpm', ['exec', 'turbo', 'run', 'test', '--continue', '--concurrency=3', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
});

/** Workspace packages that have tests, by the file name their results go to. */
function testedPackages() {
  const dirs = ['packages', 'apps', 'tools']
    .flatMap((group) => (existsSync(join(root, group)) ? readdirSync(join(root, group)).map((d) => join(group, d)) : []))
    .concat('conformance', 'conformance/real-servers', 'conformance/packaging', 'conformance/churn-scoreboard', 'conformance/frameworks', 'conformance/registry', 'bench', 'proof');
  return dirs
    .map((dir) => join(root, dir, 'package.json'))
    .filter((file) => existsSync(file))
    .map((file) => JSON.parse(readFileSync(file, 'utf8')))
    .filter((pkg) => pkg.scripts?.test)
    .map((pkg) => pkg.name.replace(/^@/, '').replace('/', '__')); // as resultFileName in vitest.shared.ts
}

/** The first line of a failure message, without colour codes, short enough for one log line. */
const firstLine = (text = '') => text.replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0].slice(0, 200);

let passed = 0;
let failed = 0;
for (const name of testedPackages()) {
  const file = join(resultsDir, `${name}.json`);
  if (!existsSync(file)) {
    failed += 1;
    console.log(`${name.padEnd(36)} no results: its build, type-check or test runner failed`);
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
  console.log(`${name.padEnd(36)} ${report.numPassedTests ?? 0} passed, ${packageFailed} failed`);
  // What failed, by name and first line of its message: the CI log may keep only the end of the run.
  for (const file of report.testResults ?? []) {
    const failures = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    const where = relative(root, file.name ?? '');
    if (failures.length === 0 && file.status === 'failed') console.log(`  ✗ ${where}: ${firstLine(file.message)}`);
    for (const a of failures) console.log(`  ✗ ${where} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || turbo.status !== 0 ? 1 : 0);
