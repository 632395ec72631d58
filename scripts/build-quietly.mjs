// Builds what a command needs before it runs, without turbo's banner, summary or telemetry
// notice on screen: a newcomer's `pnpm demo` starts with the demo. Silent when the build
// succeeds; on a failure, turbo's whole output and its exit code.
// Usage: node scripts/build-quietly.mjs <turbo filter>   (e.g. node-sample...)
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const filter = process.argv[2];
if (!filter) {
  console.error('usage: node scripts/build-quietly.mjs <turbo filter>');
  process.exit(2);
}
const build = spawnSync('turbo', ['run', 'build', `--filter=${filter}`, '--output-logs=errors-only'], {
  cwd: join(import.meta.dirname, '..'),
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
  env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1' },
});
if (build.status !== 0) {
  process.stdout.write(build.stdout ?? '');
  process.stderr.write(build.stderr ?? '');
  if (build.error) console.error(`build-quietly: ${build.error.message}`);
  process.exit(build.status ?? 1);
}
