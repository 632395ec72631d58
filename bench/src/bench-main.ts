// `pnpm bench [--quick] [--out FILE]`: every benchmark, a human table on stdout, and the
// figures in bench/results/latest.json (a full run), bench/results/local/latest.json (--quick,
// git-ignored) or FILE; a full run into the committed file then rewrites the figures README.md and
// docs/performance.md quote from it (`pnpm bench:docs`, bench/src/docs.ts). Exits 1 when a counted goal is missed
// (requests, initializes, failed calls, size budgets); timings are reported, never enforced.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { COMMITTED_RESULTS } from './committed-results.ts';
import { writeDocs } from './docs.ts';
import type { LineageMemoryResult } from './lineage-memory.ts';
import type { MemoryResult } from './memory.ts';
import { measureNodeLinesOverhead } from './node-lines-overhead.ts';
import { measureOverhead, PROGRESS_NOTIFICATIONS, type OverheadSize } from './overhead.ts';
import { countProcessWarnings } from './process-warnings.ts';
import { measureRecovery } from './recovery.ts';
import { defaultResultsPath } from './results-path.ts';
import { goalsOf, render, summaryOf, type BenchRun } from './report.ts';
import { measureSizes } from './size.ts';
import { measureStorm } from './storm.ts';

/** How much each benchmark does, quick (CI, under a minute) or full. */
const SIZES = {
  quick: {
    overhead: { warmupCalls: 100, rounds: 4, sequentialCalls: 40, concurrentCallsPerWorker: 3 } satisfies OverheadSize,
    recoveries: 10, storms: 1, memory: { calls: 200, warmup: 100 }, clients: { calls: 200, warmup: 300, max: 50 },
  },
  full: {
    overhead: { warmupCalls: 300, rounds: 20, sequentialCalls: 100, concurrentCallsPerWorker: 8 } satisfies OverheadSize,
    recoveries: 100, storms: 5, memory: { calls: 10_000, warmup: 1_000 }, clients: { calls: 10_000, warmup: 2_500, max: undefined },
  },
} as const;

const { values } = parseArgs({ options: { quick: { type: 'boolean' }, out: { type: 'string' } }, strict: true });
const size = values.quick ? SIZES.quick : SIZES.full;
const out = values.out ?? defaultResultsPath('bench', { full: values.quick !== true });
const started = Date.now();
const warnings = countProcessWarnings(); // run with --no-warnings, as `pnpm bench` is
const step = (name: string) => process.stderr.write(`bench: ${name} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);

/** The memory benchmark runs in a fresh process with --expose-gc, so that no other benchmark's garbage counts. */
function memory(subject: 'resilient' | 'plain'): MemoryResult;
function memory(subject: 'clients'): LineageMemoryResult;
function memory(subject: 'resilient' | 'plain' | 'clients'): MemoryResult | LineageMemoryResult {
  const script = fileURLToPath(new URL('./memory-main.js', import.meta.url));
  const { calls, warmup, max } = subject === 'clients' ? size.clients : { ...size.memory, max: undefined };
  const args = [script, subject, String(calls), String(warmup), ...(max === undefined ? [] : [String(max)])];
  const child = spawnSync(process.execPath, ['--expose-gc', '--no-warnings', ...args], {
    encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 600_000,
  });
  if (child.status !== 0) throw new Error(`memory benchmark (${subject}) failed: ${child.status ?? child.signal}`);
  return JSON.parse(child.stdout) as MemoryResult | LineageMemoryResult;
}

step('size');
const sizes = await measureSizes();
step('overhead, SSE answers');
const overhead = await measureOverhead(size.overhead, 'sse');
step('overhead, JSON answers');
const overheadJson = await measureOverhead(size.overhead, 'json');
step(`overhead, SSE answers with ${PROGRESS_NOTIFICATIONS} progress notifications before each result`);
const overheadProgress = await measureOverhead(size.overhead, 'sse', PROGRESS_NOTIFICATIONS);
step('overhead by Node line (this one, 24, 26), SSE then JSON answers');
const overheadNodeLines = await measureNodeLinesOverhead(size.overhead);
step('recovery');
const recovery = await measureRecovery(size.recoveries);
step('storm');
const storm = await measureStorm(size.storms);
step('memory');
const run: BenchRun = { size: sizes, overhead, overheadJson, overheadProgress, overheadNodeLines, recovery, storm, memory: { resilient: memory('resilient'), baseline: memory('plain'), clients: memory('clients') } };
step('done');

const summary = summaryOf(run);
const goals = goalsOf(summary);
const machine = { node: process.version, platform: `${process.platform} ${process.arch}`, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, memoryBytes: totalmem() };
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify({ ...summary, quick: values.quick === true, date: new Date().toISOString(), wallSeconds: Math.round((Date.now() - started) / 1000), machine, goals, details: run }, null, 2)}\n`);
console.log(render(run, summary));
if (Object.keys(warnings).length > 0) console.log(`\nprocess warnings: ${Object.entries(warnings).map(([w, n]) => `${n} ${w}`).join(', ')}`);
console.log(`\nwritten: ${out} (${Math.round((Date.now() - started) / 1000)} s)`);
// A full run into the committed file: the docs quote it from now on (what `pnpm bench:docs` does).
if (values.quick !== true && values.out === undefined) {
  const changed = writeDocs(JSON.parse(readFileSync(out, 'utf8')));
  console.log(changed.length === 0 ? `docs: ${COMMITTED_RESULTS}'s figures unchanged in the docs` : `docs: ${changed.join(' and ')} rewritten from ${COMMITTED_RESULTS}`);
}
process.exit(goals.some((g) => g.counted && !g.met) ? 1 : 0);
