import type { Spread } from '@mcp-resilience/scenarios';
import { HEALTHY_PATH_GOALS, spreadGoal, type Goal } from './goal.ts';
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
  /** The median ratio one call at a time, round by round, spread (absent in runs before spreads). */
  readonly median_ratio_spread?: Spread;
  /** The median ratio 32 at a time, round by round, spread. */
  readonly concurrent_median_ratio_spread?: Spread;
  /** The CPU the engine adds to a call, one call at a time, round by round, spread. */
  readonly added_cpu_us_spread?: Spread;
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
      median_ratio_spread: s.spread.medianRatio, concurrent_median_ratio_spread: c.spread.medianRatio, added_cpu_us_spread: s.spread.addedCpuMicros,
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

/** The Node line the per-line overhead goals hold for; the targets are {@link HEALTHY_PATH_GOALS}. */
const NEWEST_LINE = 'node26';

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

/**
 * The overhead goals on the newest line, each answer format, judged on the spread over the rounds
 * (a run before spreads: on the point figure): timings, so never counted.
 */
function newestLineGoals(lines: NodeLinesSummary): Goal[] {
  const line = NEWEST_LINE;
  type Target = keyof (typeof HEALTHY_PATH_GOALS)['json'];
  const goal = (format: NodeLinesFormat, figure: string, target: Target, pick: (l: NodeLineFigures) => [number, Spread | undefined], unit: '×' | 'µs'): Goal => {
    const atMost = HEALTHY_PATH_GOALS[format][target];
    const l = lines[format][line];
    const name = `overhead on ${line.replace('node', 'Node ')}, ${figure} (${answers(format)})`;
    const shown = unit === '×' ? `≤ ${atMost.toFixed(2)} ×` : `≤ +${atMost} µs`;
    if (l === undefined || 'failure' in l) return { name, goal: shown, measured: l?.skipped ? 'skipped' : 'no figures', met: false, counted: false };
    const [point, spread] = pick(l);
    if (spread !== undefined) return spreadGoal(name, spread, atMost, unit);
    const measured = unit === '×' ? `${point} ×` : `${signed(point)} µs (${l.plain_cpu_us} → ${l.resilient_cpu_us} µs)`;
    return { name, goal: shown, measured, met: point <= atMost, counted: false };
  };
  return [
    ...NODE_LINES_FORMATS.map((f) => goal(f, 'median latency, one call at a time', 'medianRatio', (l) => [l.median_ratio, l.median_ratio_spread], '×')),
    ...NODE_LINES_FORMATS.map((f) => goal(f, 'median latency, 32 at a time', 'concurrentMedianRatio', (l) => [l.concurrent_median_ratio, l.concurrent_median_ratio_spread], '×')),
    ...NODE_LINES_FORMATS.map((f) => goal(f, 'CPU the engine adds to a call', 'addedCpuMicros', (l) => [l.added_cpu_us, l.added_cpu_us_spread], 'µs')),
  ];
}

/**
 * The goals of the overhead by Node line: every line measured in every answer format (counted: a
 * line without figures fails the run), and on Node 26, in each format, the goals of the healthy
 * path ({@link HEALTHY_PATH_GOALS}: the median ratio one call at a time and 32 at a time, and the
 * CPU the engine adds to a call), judged on their spread over the rounds: timings, reported and
 * never counted.
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
