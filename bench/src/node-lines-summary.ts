import { OVERHEAD_MEDIAN_GOAL, type Goal } from './goal.ts';
import type { NodeLinesOverhead, NodeLinesOverheadByFormat } from './node-lines-overhead.ts';
import { table } from './text-table.ts';

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
