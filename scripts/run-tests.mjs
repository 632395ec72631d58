// Builds every package through turbo, runs every package's tests, three at a time, the longest
// first, then sums the result files the packages write to .test-results/ into the closing line
// CI reads: "N passed, N failed". A package with a test script that wrote no result (its build,
// type-check or runner failed) counts as one failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';

const root = join(import.meta.dirname, '..');
const resultsDir = join(root, '.test-results');
rmSync(resultsDir, { recursive: true, force: true });
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };

// Three packages' tests at a time: CI's machines have 2 cores, and more at once only stretch the
// timing-dependent tests (SDK timeouts, idle budgets) of each without finishing sooner.
const LANES = 3;
// The packages whose tests take longest, longest first (seconds measured in a clean-clone run of
// `bash .ci/run` on 2 cores): started first, they do not end the run alone. The rest follow.
const LONGEST_FIRST = [
  '@mcp-resilience/churn-scoreboard', // 239
  '@mcp-resilience/browser', // 145
  '@mcp-resilience/frameworks', // 142
  '@mcp-resilience/client', // 91
  '@mcp-resilience/proof', // 88
  '@mcp-resilience/bench', // 88
  'node-sample', // 80
  '@mcp-resilience/chaos', // 60
  '@mcp-resilience/registry', // 56
  '@mcp-resilience/real-servers', // 54
  '@mcp-resilience/packaging', // 45
  'deno-sample', // 43
  '@mcp-resilience/cloudflare', // 41
];

/** Workspace packages that have tests: name, folder, and the file name their results go to. */
function testedPackages() {
  const dirs = ['packages', 'apps', 'tools']
    .flatMap((group) => (existsSync(join(root, group)) ? readdirSync(join(root, group)).map((d) => join(group, d)) : []))
    .concat('conformance', 'conformance/real-servers', 'conformance/packaging', 'conformance/churn-scoreboard', 'conformance/frameworks', 'conformance/registry', 'bench', 'proof');
  return dirs
    .filter((dir) => existsSync(join(root, dir, 'package.json')))
    .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) }))
    .filter(({ pkg }) => pkg.scripts?.test)
    .map(({ dir, pkg }) => ({ dir, name: pkg.name, resultName: pkg.name.replace(/^@/, '').replace('/', '__') })); // as resultFileName in vitest.shared.ts
}

const rank = (name) => (LONGEST_FIRST.includes(name) ? LONGEST_FIRST.indexOf(name) : LONGEST_FIRST.length);

/** `pnpm run test` in the package's folder, each line of its output prefixed as turbo does; resolves with its exit code. */
function runTests({ dir, name }) {
  return new Promise((resolve) => {
    const child = spawn('pnpm', ['run', 'test'], { cwd: join(root, dir), env, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${name}:test: ${line}\n`));
    }
    child.once('error', (error) => (console.log(`${name}:test: could not start: ${error.message}`), resolve(1)));
    child.once('close', (code) => resolve(code ?? 1));
  });
}

const packages = testedPackages();
const build = spawnSync('pnpm', ['exec', 'turbo', 'run', 'build', '--continue'], { cwd: root, stdio: 'inherit', env });
const queue = [...packages].sort((a, b) => rank(a.name) - rank(b.name));
const exitCodes = [];
await Promise.all(Array.from({ length: LANES }, async () => {
  for (let next = queue.shift(); next; next = queue.shift()) exitCodes.push(await runTests(next));
}));

/** The first line of a failure message, without colour codes, short enough for one log line. */
const firstLine = (text = '') => text.replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0].slice(0, 200);

let passed = 0;
let failed = 0;
for (const { resultName: name } of packages) {
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
process.exit(failed > 0 || build.status !== 0 || exitCodes.some((code) => code !== 0) ? 1 : 0);
