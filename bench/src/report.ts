import type { LineageMemoryResult } from './lineage-memory.ts';
import type { MemoryResult } from './memory.ts';
import type { NodeLinesOverhead, NodeLinesOverheadByFormat } from './node-lines-overhead.ts';
import type { OverheadResult } from './overhead.ts';
import type { RecoveryResult } from './recovery.ts';
import { ADAPTER_BUDGET, ADAPTERS, SIZE_BUDGET, SIZE_GOAL, type SizeReport } from './size.ts';
import type { StormResult } from './storm.ts';

/** Timers or listeners left that still pass: 1 % of the losses, but never below the 5 a quick run sees in passing. */
const leftAllowed = (losses: number) => Math.max(5, losses / 100);

/** Everything one `pnpm bench` run measured. */
export interface BenchRun {
  /** Against a server that answers over SSE (the SDK server's default). */
  readonly overhead: OverheadResult;
  /** Against a server that answers with JSON bodies. */
  readonly overheadJson: OverheadResult;
  /** SSE and JSON answers, on this process's Node and on Node 24 and 26, each in a child process, against one chaos server. */
  readonly overheadNodeLines: NodeLinesOverheadByFormat;
  readonly recovery: RecoveryResult;
  readonly storm: StormResult;
  readonly memory: { readonly resilient: MemoryResult; readonly baseline: MemoryResult; readonly clients: LineageMemoryResult };
  readonly size: SizeReport;
}

/** A goal of issue #5 and whether this run met it. `counted` goals are counts, not timings: a miss fails the run. */
export interface Goal {
  readonly name: string;
  readonly goal: string;
  readonly measured: string;
  readonly met: boolean;
  readonly counted: boolean;
}

/**
 * The flat figures `bench/results/latest.json` leads with.
 *
 * @example
 * summaryOf(run).storm_initializes; // 1
 */
export function summaryOf(run: BenchRun) {
  const { overhead, overheadJson, overheadNodeLines, recovery, storm, memory, size } = run;
  return {
    overhead_median_ratio: overhead.sequential.medianRatio,
    overhead_p99_ratio: overhead.sequential.p99Ratio,
    overhead_cpu_ratio: overhead.sequential.cpuRatio,
    overhead_concurrent_median_ratio: overhead.concurrent.medianRatio,
    overhead_concurrent_p99_ratio: overhead.concurrent.p99Ratio,
    overhead_concurrent_cpu_ratio: overhead.concurrent.cpuRatio,
    overhead_json_median_ratio: overheadJson.sequential.medianRatio,
    overhead_json_p99_ratio: overheadJson.sequential.p99Ratio,
    overhead_json_cpu_ratio: overheadJson.sequential.cpuRatio,
    overhead_json_concurrent_median_ratio: overheadJson.concurrent.medianRatio,
    overhead_json_concurrent_cpu_ratio: overheadJson.concurrent.cpuRatio,
    overhead_node_lines: nodeLinesSummary(overheadNodeLines),
    recovery_requests: recovery.reactive.path.requests,
    recovery_round_trips: recovery.reactive.path.roundTrips,
    recovery_failed_requests: recovery.reactive.path.failedRequests,
    recovery_requests_proactive: recovery.proactive.path.requests,
    recovery_failed_requests_proactive: recovery.proactive.path.failedRequests,
    recovery_initializes_proactive: recovery.proactive.path.initializes,
    recovery_distinct_paths: Math.max(recovery.reactive.distinctPaths, recovery.proactive.distinctPaths),
    recovery_requests_workaround: recovery.workaround.path.requests,
    recovery_latency_ratio: recovery.reactive.latencyRatio,
    recovery_latency_ratio_workaround: recovery.workaround.latencyRatio,
    storm_calls: storm.calls,
    storm_initializes: Math.max(...storm.resilient.initializes),
    storm_baseline_initializes: Math.max(...storm.workaround.initializes),
    storm_failed_calls: storm.resilient.failedCalls,
    storm_p99_ms: round(storm.resilient.latency.p99Ms),
    storm_baseline_p99_ms: round(storm.workaround.latency.p99Ms),
    memory_losses: memory.resilient.losses,
    heap_growth_bytes: memory.resilient.heapGrowthBytes,
    heap_growth_baseline_bytes: memory.baseline.heapGrowthBytes,
    array_buffers_growth_bytes: memory.resilient.arrayBuffersGrowthBytes,
    timers_leaked: memory.resilient.timersLeaked,
    listeners_leaked: memory.resilient.listenersLeaked,
    lineage_clients: memory.clients.clients,
    lineage_failed_calls: memory.clients.failedCalls,
    lineage_heap_growth_bytes: memory.clients.heapGrowthBytes,
    core_gzip_bytes: size.core.gzipBytes,
    engine_gzip_bytes: size.engine.gzipBytes,
    engine_with_core_gzip_bytes: size.engineWithCore.gzipBytes,
    adapter_gzip_bytes: Object.fromEntries(ADAPTERS.map((a) => [a, size.adapters[a].alone.gzipBytes])) as Record<(typeof ADAPTERS)[number], number>,
  };
}

export type BenchSummary = ReturnType<typeof summaryOf>;

/**
 * The answer formats every Node line is measured in, in the order they run
 * (`measureNodeLinesOverhead`: SSE on every line, then JSON on every line).
 *
 * @example
 * NODE_LINES_FORMATS.map((f) => summaryOf(run).overhead_node_lines[f].node26); // [SSE figures, JSON figures]
 */
export const NODE_LINES_FORMATS = ['sse', 'json'] as const satisfies readonly (keyof NodeLinesOverheadByFormat)[];

/** An answer format every Node line is measured in (`sse`, `json`). */
export type NodeLinesFormat = (typeof NODE_LINES_FORMATS)[number];

/** One Node line's overhead figures in one answer format, as `latest.json` keeps them. */
export interface NodeLineFigures {
  readonly node: string;
  readonly median_ratio: number;
  readonly p99_ratio: number;
  readonly cpu_ratio: number;
  readonly plain_cpu_us: number;
  readonly resilient_cpu_us: number;
  /** `resilient_cpu_us − plain_cpu_us`: the CPU the engine adds to a call, one call at a time. */
  readonly added_cpu_us: number;
  readonly concurrent_median_ratio: number;
  readonly concurrent_cpu_ratio: number;
}

/** Why a Node line has no figures in one answer format (`skipped`: no binary for this platform). */
export interface NodeLineFailure {
  readonly node?: string;
  readonly failure: string;
  readonly skipped?: true;
}

/** One Node line's overhead figures in one answer format, or why it has none. */
export type NodeLineSummary = NodeLineFigures | NodeLineFailure;

/**
 * `overhead_node_lines` in `latest.json`: for each answer format, each Node line's figures keyed
 * by line (`node20`, `node24`, `node26`).
 *
 * @example
 * const lines: NodeLinesSummary = { sse: { node26: { node: 'v26.12.1', median_ratio: 1.028, … } }, json: { node26: { … } } };
 */
export type NodeLinesSummary = Readonly<Record<NodeLinesFormat, Readonly<Record<string, NodeLineSummary>>>>;

function linesSummaryOf(measured: NodeLinesOverhead): Record<string, NodeLineSummary> {
  return Object.fromEntries(measured.lines.map((l): [string, NodeLineSummary] => {
    if (!('result' in l)) return [l.line, { ...(l.node ? { node: l.node } : {}), failure: l.failure, ...(l.skipped ? { skipped: true } : {}) }];
    const { sequential: s, concurrent: c } = l.result;
    return [l.line, {
      node: l.node, median_ratio: s.medianRatio, p99_ratio: s.p99Ratio, cpu_ratio: s.cpuRatio,
      plain_cpu_us: s.plain.cpuMicrosPerCall, resilient_cpu_us: s.resilient.cpuMicrosPerCall, added_cpu_us: s.resilient.cpuMicrosPerCall - s.plain.cpuMicrosPerCall,
      concurrent_median_ratio: c.medianRatio, concurrent_cpu_ratio: c.cpuRatio,
    }];
  }));
}

/**
 * The overhead by Node line, for each answer format, keyed by line (`node20`, `node24`, `node26`).
 *
 * @example
 * nodeLinesSummary(run.overheadNodeLines).json.node26; // { node: 'v26.12.1', median_ratio: 1.02, …, added_cpu_us: 41, … }
 */
export function nodeLinesSummary(measured: NodeLinesOverheadByFormat): NodeLinesSummary {
  return { sse: linesSummaryOf(measured.sse), json: linesSummaryOf(measured.json) };
}

/**
 * The goal for the median latency ratio one call at a time, engine / plain, in either answer format.
 *
 * @example
 * summary.overhead_json_median_ratio <= OVERHEAD_MEDIAN_GOAL; // the JSON goal met
 */
export const OVERHEAD_MEDIAN_GOAL = 1.03;

/** The Node line the per-line overhead goals hold for, and their targets, the same in each answer format. */
const NEWEST_LINE_GOALS = { line: 'node26', medianRatio: OVERHEAD_MEDIAN_GOAL, concurrentMedianRatio: 1.1, addedCpuMicros: 60 } as const;

const signed = (n: number) => `${n >= 0 ? '+' : ''}${n}`;
const answers = (format: NodeLinesFormat) => `${format.toUpperCase()} answers`;

/**
 * Every Node line measured in some answer format, in the order they ran.
 *
 * @example
 * nodeLineNames(summaryOf(run).overhead_node_lines); // ['node20', 'node24', 'node26']
 */
export function nodeLineNames(lines: NodeLinesSummary): string[] {
  return [...new Set(NODE_LINES_FORMATS.flatMap((f) => Object.keys(lines[f])))];
}

/** Whether each line has figures in every format (or is skipped, where there is no binary). */
function everyLineMeasured(lines: NodeLinesSummary): Goal {
  const names = nodeLineNames(lines);
  const state = (l: NodeLineSummary | undefined) => (l === undefined ? 'not measured' : 'failure' in l ? (l.skipped ? 'skipped' : 'no figures') : 'figures');
  return {
    name: 'overhead measured on every Node line', goal: `${names.join(', ')}, ${NODE_LINES_FORMATS.map((f) => f.toUpperCase()).join(' and ')} answers`,
    measured: names.map((name) => {
      const states = NODE_LINES_FORMATS.map((f) => state(lines[f][name]));
      return `${name}: ${states.every((x) => x === states[0]) ? states[0] : NODE_LINES_FORMATS.map((f, i) => `${f.toUpperCase()} ${states[i]}`).join(', ')}`;
    }).join(', '),
    met: NODE_LINES_FORMATS.every((f) => names.every((name) => ['figures', 'skipped'].includes(state(lines[f][name])))),
    counted: true,
  };
}

/** The overhead goals on the newest line ({@link NEWEST_LINE_GOALS}), each answer format: timings, so never counted. */
function newestLineGoals(lines: NodeLinesSummary): Goal[] {
  const { line, medianRatio, concurrentMedianRatio, addedCpuMicros } = NEWEST_LINE_GOALS;
  const goal = (format: NodeLinesFormat, figure: string, target: string, measure: (l: NodeLineFigures) => { measured: string; met: boolean }): Goal => {
    const l = lines[format][line];
    const name = `overhead on ${line.replace('node', 'Node ')}, ${figure} (${answers(format)})`;
    if (l === undefined || 'failure' in l) return { name, goal: target, measured: l?.skipped ? 'skipped' : 'no figures', met: false, counted: false };
    return { name, goal: target, ...measure(l), counted: false };
  };
  return [
    ...NODE_LINES_FORMATS.map((f) => goal(f, 'median latency, one call at a time', `≤ ${medianRatio.toFixed(2)} ×`, (l) => ({ measured: `${l.median_ratio} ×`, met: l.median_ratio <= medianRatio }))),
    ...NODE_LINES_FORMATS.map((f) => goal(f, 'median latency, 32 at a time', `≤ ${concurrentMedianRatio.toFixed(2)} ×`, (l) => ({
      measured: `${l.concurrent_median_ratio} ×`, met: l.concurrent_median_ratio <= concurrentMedianRatio,
    }))),
    ...NODE_LINES_FORMATS.map((f) => goal(f, 'CPU the engine adds to a call', `≤ +${addedCpuMicros} µs`, (l) => ({
      measured: `${signed(l.added_cpu_us)} µs (${l.plain_cpu_us} → ${l.resilient_cpu_us} µs)`, met: l.added_cpu_us <= addedCpuMicros,
    }))),
  ];
}

/**
 * The goals of the overhead by Node line: every line measured in every answer format (counted: a
 * line without figures fails the run), and on Node 26, in each format, the median ratio one call
 * at a time (≤ 1.03) and 32 at a time (≤ 1.10) and the CPU the engine adds to a call (≤ +60 µs):
 * timings, reported and never counted.
 *
 * @example
 * nodeLinesGoals(summaryOf(run).overhead_node_lines).map((g) => g.name);
 * // ['overhead measured on every Node line', 'overhead on Node 26, median latency, one call at a time (SSE answers)', …]
 */
export function nodeLinesGoals(lines: NodeLinesSummary): Goal[] {
  return [everyLineMeasured(lines), ...newestLineGoals(lines)];
}

const round = (ms: number) => Math.round(ms * 10) / 10;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

/**
 * The goals of issue #5 against one run's figures.
 *
 * @example
 * goalsOf(summaryOf(run)).filter((g) => g.counted && !g.met); // []
 */
export function goalsOf(s: BenchSummary): Goal[] {
  return [
    { name: 'overhead, median latency (SSE answers)', goal: `≤ ${OVERHEAD_MEDIAN_GOAL} ×`, measured: `${s.overhead_median_ratio} ×`, met: s.overhead_median_ratio <= OVERHEAD_MEDIAN_GOAL, counted: false },
    { name: 'overhead, median latency (JSON answers)', goal: `≤ ${OVERHEAD_MEDIAN_GOAL} ×`, measured: `${s.overhead_json_median_ratio} ×`, met: s.overhead_json_median_ratio <= OVERHEAD_MEDIAN_GOAL, counted: false },
    ...nodeLinesGoals(s.overhead_node_lines),
    { name: 'recovery, failed requests', goal: '1 (the call that met the loss)', measured: `${s.recovery_failed_requests}`, met: s.recovery_failed_requests === 1, counted: true },
    { name: 'recovery, every trial the same requests', goal: '1 path', measured: `${s.recovery_distinct_paths}`, met: s.recovery_distinct_paths === 1, counted: false },
    {
      name: 'recovery with idleBudgetMs', goal: '0 failed requests, 1 initialize',
      measured: `${s.recovery_failed_requests_proactive} failed, ${s.recovery_initializes_proactive} initialize`,
      met: s.recovery_failed_requests_proactive === 0 && s.recovery_initializes_proactive === 1, counted: true,
    },
    { name: 'storm, initialize requests', goal: 'exactly 1', measured: `${s.storm_initializes} (workaround: ${s.storm_baseline_initializes})`, met: s.storm_initializes === 1, counted: true },
    { name: 'storm, failed calls', goal: '0', measured: `${s.storm_failed_calls}`, met: s.storm_failed_calls === 0, counted: true },
    { name: `memory, heap growth over ${s.memory_losses} losses`, goal: '< 2 MB', measured: mb(s.heap_growth_bytes), met: s.heap_growth_bytes < 2 * 1024 * 1024, counted: false },
    // A leak grows with the losses, one or more each; a few either way are timers and streams in passing
    // (the SDK reopening its GET stream, sockets kept alive) at the moment of measuring.
    {
      name: 'memory, timers and listeners left', goal: `< 1 % of the losses, and at least 5 (${leftAllowed(s.memory_losses)})`,
      measured: `${s.timers_leaked} timers, ${s.listeners_leaked} listeners`,
      met: Math.max(s.timers_leaked, s.listeners_leaked) < leftAllowed(s.memory_losses), counted: true,
    },
    {
      name: `memory, ${s.lineage_clients} clients opened and let go on one fetch`, goal: '< 2 MB heap growth, 0 failed calls',
      measured: `${mb(s.lineage_heap_growth_bytes)}, ${s.lineage_failed_calls} failed`,
      met: s.lineage_heap_growth_bytes < 2 * 1024 * 1024 && s.lineage_failed_calls === 0, counted: false,
    },
    { name: 'size, core (min+gzip)', goal: `≤ ${kb(SIZE_GOAL.core)}`, measured: kb(s.core_gzip_bytes), met: s.core_gzip_bytes <= SIZE_GOAL.core, counted: false },
    { name: 'size, core: the budget CI holds', goal: `≤ ${kb(SIZE_BUDGET.core)}`, measured: kb(s.core_gzip_bytes), met: s.core_gzip_bytes <= SIZE_BUDGET.core, counted: true },
    { name: 'size, engine without core (min+gzip)', goal: `≤ ${kb(SIZE_GOAL.engine)}`, measured: kb(s.engine_gzip_bytes), met: s.engine_gzip_bytes <= SIZE_GOAL.engine, counted: false },
    { name: 'size, engine: the budget CI holds', goal: `≤ ${kb(SIZE_BUDGET.engine)}`, measured: kb(s.engine_gzip_bytes), met: s.engine_gzip_bytes <= SIZE_BUDGET.engine, counted: true },
    ...ADAPTERS.map((a) => ({
      name: `size, @mcp-resilience/${a} alone: the budget CI holds`, goal: `≤ ${kb(ADAPTER_BUDGET[a])}`, measured: kb(s.adapter_gzip_bytes[a]),
      met: s.adapter_gzip_bytes[a] <= ADAPTER_BUDGET[a], counted: true,
    })),
  ];
}

/**
 * Columns padded to their widest cell.
 *
 * @example
 * table([['a', 'b'], ['ccc', 'd']]); // 'a    b\nccc  d'
 */
export function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => (row[c] ?? '').length)));
  return rows.map((row) => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c]!))).join('  ')).join('\n');
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/**
 * The overhead by Node line as the human report prints it: a row per line, for each answer format
 * the ratios one call at a time (median / p99), the median ratio 32 at a time, and the CPU a call,
 * plain → engine (and what the engine adds).
 *
 * @example
 * nodeLinesTable(summaryOf(run).overhead_node_lines).split('\n')[1]; // 'node20 (v20.20.2)  1.039 / 1.058  1.229  955 → 1060 µs (+105)  …'
 */
export function nodeLinesTable(lines: NodeLinesSummary): string {
  const names = nodeLineNames(lines);
  const cells = (l: NodeLineSummary | undefined) => l === undefined ? ['not measured', '', '']
    : 'failure' in l ? [l.skipped ? `skipped: ${l.failure}` : `NO FIGURES: ${l.failure}`, '', '']
    : [`${l.median_ratio} / ${l.p99_ratio}`, `${l.concurrent_median_ratio}`, `${l.plain_cpu_us} → ${l.resilient_cpu_us} µs (${signed(l.added_cpu_us)})`];
  return table([
    ['', ...NODE_LINES_FORMATS.flatMap((f) => [`${f.toUpperCase()}: ratio median / p99`, `${f.toUpperCase()} 32 at a time: median`, `${f.toUpperCase()}: CPU per call, plain → engine`])],
    ...names.map((name) => {
      const node = NODE_LINES_FORMATS.map((f) => lines[f][name]?.node).find((n) => n !== undefined);
      return [`${name}${node ? ` (${node})` : ''}`, ...NODE_LINES_FORMATS.flatMap((f) => cells(lines[f][name]))];
    }),
  ]);
}

/** The human report of one run. */
export function render(run: BenchRun, s: BenchSummary): string {
  const { overhead, overheadJson, recovery, storm, memory, size } = run;
  const o = (name: string, c: OverheadResult['sequential']) => [
    name, `${ms(c.plain.latency.medianMs)} / ${ms(c.plain.latency.p99Ms)} / ${c.plain.cpuMicrosPerCall} µs`,
    `${ms(c.resilient.latency.medianMs)} / ${ms(c.resilient.latency.p99Ms)} / ${c.resilient.cpuMicrosPerCall} µs`,
    `${c.medianRatio} / ${c.p99Ratio} / ${c.cpuRatio}`,
  ];
  const r = (name: string, v: RecoveryResult['reactive']) => [
    name, `${v.path.requests} (${v.path.failedRequests} failed)`, `${v.path.roundTrips}`,
    `${ms(v.latency.medianMs)} (${v.latencyRatio} × healthy)`,
    v.path.sequence.join(' → ') + (v.distinctPaths > 1 ? ` (and ${v.distinctPaths - 1} other paths)` : ''),
  ];
  return [
    'Overhead: plain SDK client vs the same client with createResilientFetch(), healthy chaos server',
    table([
      ['', 'plain: median / p99 / CPU per call', 'resilient', 'ratios'],
      o('SSE answers, sequential', overhead.sequential), o('SSE answers, concurrency 32', overhead.concurrent),
      o('JSON answers, sequential', overheadJson.sequential), o('JSON answers, concurrency 32', overheadJson.concurrent),
    ]),
    '',
    'Overhead by Node line: SSE answers on every line, then JSON answers on every line, one chaos server, each line in a child process of its own Node',
    nodeLinesTable(s.overhead_node_lines),
    '',
    'Recovery: from a session loss to the answer (chaos server wire log)',
    table([
      ['', 'requests', 'round trips', 'latency (median)', 'what the server saw'],
      r('engine', recovery.reactive), r('engine, idleBudgetMs', recovery.proactive), r('workaround', recovery.workaround),
    ]),
    '',
    `Storm: ${storm.calls} concurrent calls meet one evicted session (${storm.storms} storm${storm.storms > 1 ? 's' : ''})`,
    table([
      ['', 'initialize requests', 'failed calls', 'median', 'p99', 'p99 vs healthy'],
      ['engine', storm.resilient.initializes.join(', '), `${storm.resilient.failedCalls}`, ms(storm.resilient.latency.medianMs), ms(storm.resilient.latency.p99Ms), `${storm.resilient.p99Ratio} ×`],
      ['workaround', storm.workaround.initializes.join(', '), `${storm.workaround.failedCalls}`, ms(storm.workaround.latency.medianMs), ms(storm.workaround.latency.p99Ms), `${storm.workaround.p99Ratio} ×`],
    ]),
    '',
    `Memory: heap after full GCs (each in a process of its own)`,
    table([
      ['', 'calls', 'losses', 'heap growth', 'ArrayBuffers growth', 'timers left', 'listeners left', 'process warnings'],
      ...([['engine', memory.resilient], ['plain SDK, no loss', memory.baseline]] as const).map(([name, m]) => [
        name, `${m.calls}`, `${m.losses}`, mb(m.heapGrowthBytes), mb(m.arrayBuffersGrowthBytes), `${m.timersLeaked}`, `${m.listenersLeaked}`,
        Object.entries(m.warnings ?? {}).map(([w, n]) => `${n} ${w}`).join(', ') || 'none',
      ]),
    ]),
    `${memory.clients.clients} clients on one fetch (half ended with a DELETE, half only closed), after a warm-up past its bound on lineages: heap growth ${mb(memory.clients.heapGrowthBytes)}, ${memory.clients.failedCalls} failed calls`,
    '',
    'Size (rolldown minify, gzip -9)',
    table([
      ['', 'minified', 'min+gzip'],
      ['core', kb(size.core.minifiedBytes), kb(size.core.gzipBytes)],
      ['engine without core', kb(size.engine.minifiedBytes), kb(size.engine.gzipBytes)],
      ['engine with core', kb(size.engineWithCore.minifiedBytes), kb(size.engineWithCore.gzipBytes)],
      ...ADAPTERS.flatMap((a) => [
        [`${a} adapter alone`, kb(size.adapters[a].alone.minifiedBytes), kb(size.adapters[a].alone.gzipBytes)],
        [`${a} adapter with engine and core`, kb(size.adapters[a].withEngineAndCore.minifiedBytes), kb(size.adapters[a].withEngineAndCore.gzipBytes)],
      ]),
    ]),
    '',
    'Goals',
    table([['', 'goal', 'measured', ''], ...goalsOf(s).map((g) => [g.name, g.goal, g.measured, g.met ? 'met' : g.counted ? 'MISSED' : 'missed: see docs/performance.md'])]),
  ].join('\n');
}
