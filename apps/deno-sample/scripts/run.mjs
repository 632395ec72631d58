#!/usr/bin/env node
// The Deno sample, for a Node script or a person: runs src/main.ts in Deno with the least
// permissions it needs (--allow-net of the chaos host, --allow-read of the scenarios directory,
// nothing else; with --overhead, --allow-net of the chaos host only), Deno's own messages off,
// and exits with its code: stdout is the report's alone, stderr the summary's and the errors'.
// Without --chaos it starts an mcp-chaos process on 127.0.0.1 and stops it by its PID at the end.
// Usage: node apps/deno-sample/scripts/run.mjs [--chaos CONTROL_URL] [scenarios-dir | --overhead [--quick]]
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startChaosProcess } from '@mcp-resilience/chaos';
import { denoBinary, denoEnv, REPO_ROOT } from '../../../packages/deno/scripts/deno-env.mjs';

const APP = join(import.meta.dirname, '..');
const USAGE = 'usage: run.mjs [--chaos CONTROL_URL] [scenarios-dir | --overhead [--quick]]';
/** The corpus takes about 20 s in Deno, the full overhead measurement about a minute: ten is a hang. */
const RUN_CAP_MS = 600_000;

let args;
try {
  args = parseArgs({
    options: { chaos: { type: 'string' }, overhead: { type: 'boolean' }, quick: { type: 'boolean' } }, allowPositionals: true, strict: true,
  });
  const { chaos, overhead, quick } = args.values;
  if (args.positionals.length > (overhead ? 0 : 1) || (quick && !overhead) || (chaos !== undefined && !URL.canParse(chaos))) throw new Error('bad arguments');
} catch {
  process.stderr.write(`${USAGE}\n`);
  process.exit(2);
}
const dir = resolve(args.positionals[0] ?? join(REPO_ROOT, 'conformance', 'scenarios'));

let chaos;
let deno;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    if (deno?.exitCode === null) deno.kill(signal);
    void (chaos?.stop() ?? Promise.resolve()).finally(() => process.exit(1));
  });
}
try {
  chaos = args.values.chaos === undefined ? await startChaosProcess() : undefined;
  const control = args.values.chaos ?? chaos.control;
  const overhead = args.values.overhead ? ['--overhead', ...(args.values.quick ? ['--quick'] : [])] : undefined;
  // The corpus reads its directory; the overhead measurement reads no file.
  const permissions = [`--allow-net=${new URL(control).hostname}`, ...(overhead ? [] : [`--allow-read=${dir}`])];
  // --quiet: what Deno says of itself (`Download …` of every npm package while its cache is empty,
  // `Check …`) would land on stderr beside the summary line; its errors are still printed.
  deno = spawn(denoBinary(APP), [
    'run', '--quiet', '--no-prompt', ...permissions, 'src/main.ts', '--chaos', control, ...(overhead ?? [dir]),
  ], { cwd: APP, env: denoEnv(), stdio: 'inherit' });
  const cap = setTimeout(() => {
    process.stderr.write(`deno-sample: stopped after ${RUN_CAP_MS / 1000} s\n`);
    deno.kill('SIGKILL');
  }, RUN_CAP_MS);
  process.exitCode = await new Promise((done) => {
    deno.once('error', (error) => (process.stderr.write(`deno-sample: ${error.message}\n`), done(1)));
    deno.once('exit', (code) => done(code ?? 1));
  });
  clearTimeout(cap);
} finally {
  await chaos?.stop();
}
