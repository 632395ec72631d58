// `pnpm bench:runtimes [--quick] [--out FILE]`: the engine's overhead in Node, Deno, workerd and
// Chromium, measured in one run against one mcp-chaos process (started here, stopped by PID):
// each runtime's sample runs the shared measurement (`--overhead`), one runtime after another,
// and the figures become one table on stdout and one JSON file: bench/results/runtimes.json (a
// full run), bench/results/local/runtimes.json (--quick, git-ignored) or FILE. Exits 1 when a
// runtime gave no figures (its sample failed, or a call failed). Timings are reported, never
// enforced.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { runSample } from '@mcp-resilience/proof/run-sample';
import { SAMPLE_RUNS } from '@mcp-resilience/proof/runtimes';
import { startChaosProcess } from './chaos-process.ts';
import { defaultResultsPath } from './results-path.ts';
import { parseRuntimeOverhead, renderRuntimesTable, type RuntimeOverheadOutcome } from './runtimes-table.ts';

const { values } = parseArgs({ options: { quick: { type: 'boolean' }, out: { type: 'string' } }, strict: true });
const quick = values.quick === true;
const out = values.out ?? defaultResultsPath('runtimes', { full: !quick });
const started = Date.now();
const seconds = () => Math.round((Date.now() - started) / 1000);

const chaos = await startChaosProcess();
const outcomes: RuntimeOverheadOutcome[] = [];
try {
  // One runtime after another: the machine's cores go to one measurement at a time.
  for (const run of SAMPLE_RUNS) {
    process.stderr.write(`bench:runtimes: ${run.runtime} (${seconds()} s)\n`);
    const outcome = await runSample(run, chaos.control, { args: ['--overhead', ...(quick ? ['--quick'] : [])] });
    try {
      if (outcome.code !== 0) throw new Error(`exit ${outcome.code}: ${outcome.summary}`);
      outcomes.push({ runtime: run.runtime, overhead: parseRuntimeOverhead(outcome.stdout, run.runtime) });
    } catch (error) {
      outcomes.push({ runtime: run.runtime, failure: (error as Error).message });
    }
  }
} finally {
  await chaos.stop();
}

const table = renderRuntimesTable(outcomes);
const machine = { node: process.version, platform: `${process.platform} ${process.arch}`, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, memoryBytes: totalmem() };
const command = `pnpm bench:runtimes${quick ? ' --quick' : ''}`;
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ command, quick, date: new Date().toISOString(), wallSeconds: seconds(), machine, table, runtimes: outcomes }, null, 2)}\n`);
process.stdout.write(table);
process.stdout.write(`\nwritten: ${out} (${seconds()} s)\n`);
process.exitCode = outcomes.some((o) => 'failure' in o) ? 1 : 0;
