// Runs every package's tests through turbo, then sums the per-package result files in
// .test-results/ into the closing line CI reads: "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const resultsDir = join(import.meta.dirname, '..', '.test-results');
rmSync(resultsDir, { recursive: true, force: true });

const turbo = spawnSync('pnpm', ['exec', 'turbo', 'run', 'test', '--continue', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
});

let passed = 0;
let failed = 0;
const files = existsSync(resultsDir) ? readdirSync(resultsDir).filter((f) => f.endsWith('.json')) : [];
for (const file of files) {
  const report = JSON.parse(readFileSync(join(resultsDir, file), 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0);
  console.log(`${file.replace(/\.json$/, '').padEnd(16)} ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}
console.log(`${passed} passed, ${failed} failed`);
if (turbo.status !== 0 || files.length === 0) {
  // A build or type-check failure writes no result file: the counts above miss it, the exit code must not.
  console.error(`test run failed: turbo exited with ${turbo.status}, ${files.length} result files`);
  process.exit(1);
}
process.exit(failed > 0 ? 1 : 0);
