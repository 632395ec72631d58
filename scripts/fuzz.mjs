// Explores with fresh seeds: the suite's properties always draw from one seed (vitest.fast-check.ts),
// so that its verdict is the same on every machine; this command runs every test file that holds
// a fast-check property again and again, each round with a new random seed, for as long as it is
// told, and prints each failure with the command that replays it. A find becomes a plain test (or
// an example of its property) before the work is done.
// Usage: pnpm fuzz [--minutes N] [--package core|client]   (default: 10 minutes, both packages)
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';

const root = join(import.meta.dirname, '..');
const USAGE = 'usage: pnpm fuzz [--minutes N] [--package core|client]';
let values;
try {
  ({ values } = parseArgs({ options: { minutes: { type: 'string', default: '10' }, package: { type: 'string', multiple: true } } }));
} catch (error) {
  console.error(`${error.message}\n${USAGE}`);
  process.exit(2);
}
const minutes = Number(values.minutes);
const packages = values.package ?? ['core', 'client'];
if (!(minutes > 0) || packages.some((name) => name !== 'core' && name !== 'client')) {
  console.error(USAGE);
  process.exit(2);
}

/** The test files of a package that hold a fast-check property. */
function propertyFiles(dir) {
  const listed = spawnSync('git', ['grep', '--untracked', '-l', "from 'fast-check'", '--', 'src/*.test.ts'], { cwd: dir, encoding: 'utf8' });
  return listed.stdout.split('\n').filter(Boolean);
}

/** One round: the package's property files with this seed; every failed test with its first lines. */
function round(dir, files, seed, out) {
  const run = spawnSync('npx', ['vitest', 'run', ...files, '--reporter=json', `--outputFile.json=${out}`], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, FC_SEED: String(seed), CI: '' },
  });
  let report;
  try {
    report = JSON.parse(readFileSync(out, 'utf8'));
  } catch {
    return [{ name: `${relative(root, dir)}: vitest gave no report (exit ${run.status})`, message: (run.stderr ?? '').slice(-2000) }];
  }
  return (report.testResults ?? []).flatMap((file) => [
    ...(file.status === 'failed' && !(file.assertionResults ?? []).some((a) => a.status === 'failed')
      ? [{ name: relative(root, file.name), message: file.message ?? '' }]
      : []),
    ...(file.assertionResults ?? [])
      .filter((a) => a.status === 'failed')
      .map((a) => ({ name: `${relative(root, file.name)} › ${a.fullName}`, message: a.failureMessages?.[0] ?? '' })),
  ]);
}

const build = spawnSync('node', [join(root, 'scripts/build-quietly.mjs'), '@mcp-resilience/client...'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const scratch = mkdtempSync(join(tmpdir(), 'fuzz-'));
const until = Date.now() + minutes * 60_000;
let rounds = 0;
let finds = 0;
try {
  while (Date.now() < until) {
    for (const name of packages) {
      if (Date.now() >= until) break;
      const dir = join(root, 'packages', name);
      const seed = randomInt(-(2 ** 31), 2 ** 31);
      const started = Date.now();
      const failures = round(dir, propertyFiles(dir), seed, join(scratch, `${name}.json`));
      rounds += 1;
      finds += failures.length;
      console.log(`${name} seed ${seed}: ${failures.length === 0 ? 'held' : `${failures.length} failed`} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      for (const f of failures) {
        const replay = /Replay it from the repository's root:\n\s*(.+)/.exec(f.message)?.[1] ?? `(cd packages/${name} && FC_SEED=${seed} npx vitest run)`;
        console.log(`  ✗ ${f.name}\n    ${f.message.split('\n').find((l) => l.trim()) ?? ''}\n    replay: ${replay}`);
      }
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`fuzz: ${rounds} rounds in ${minutes} min, ${finds} failures${finds ? ': make each a plain test (or an example of its property)' : ''}`);
process.exit(finds > 0 ? 1 : 0);
