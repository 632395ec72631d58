// The generated stretches of docs/performance.md that give each overhead ratio with its spread over
// the rounds (`overhead_spread`), the p99 at 32 at a time, and the run with progress notifications.
import type { Spread } from '@mcp-resilience/scenarios';
import type { CommittedResults } from './committed-results.ts';
import type { DocBlock } from './doc-block.ts';
import { int, r3, tableOf } from './doc-figures.ts';
import { OVERHEAD_RUNS, type OverheadRun, type SpreadFigures } from './overhead-summary.ts';

/**
 * A spread of ratios in a table cell: the median of the rounds, the interquartile range, the extremes.
 *
 * @example
 * ratioCell({ rounds: 20, median: 1.04, q1: 1.02, q3: 1.06, min: 0.99, max: 1.1 }); // '1.040 [1.020–1.060] (0.990–1.100)'
 */
export const ratioCell = (s: Spread) => `${r3(s.median)} [${r3(s.q1)}–${r3(s.q3)}] (${r3(s.min)}–${r3(s.max)})`;

/**
 * A spread of µs in a table cell, signed.
 *
 * @example
 * microsCell({ rounds: 20, median: 12, q1: -3, q3: 30, min: -10, max: 41 }); // '+12 [−3 – +30] (−10 – +41) µs'
 */
export const microsCell = (s: Spread) => {
  const signed = (n: number) => (n > 0 ? `+${int(n)}` : int(n));
  return `${signed(s.median)} [${signed(s.q1)} – ${signed(s.q3)}] (${signed(s.min)} – ${signed(s.max)}) µs`;
};

const RUN_NAME: Readonly<Record<OverheadRun, (c: CommittedResults) => string>> = {
  sse: () => 'SSE', json: () => 'JSON', sse_progress: (c) => `SSE, ${c.overhead_progress_notifications} progress notifications first`,
};

/**
 * The blocks of the overhead's spreads: the table of every ratio by round, the p99 at 32 at a
 * time, and the run with progress notifications.
 *
 * @example
 * OVERHEAD_SPREAD_BLOCKS.map((b) => b.name); // ['overhead-spread', 'overhead-p99-concurrent', 'overhead-progress']
 */
export const OVERHEAD_SPREAD_BLOCKS: readonly DocBlock[] = [
  {
    name: 'overhead-spread', doc: 'docs/performance.md', quotes: 'each overhead ratio by round: median [IQR] (range) (overhead_spread)', inline: false,
    render: (c) => {
      const spread = c.overhead_spread;
      if (spread === undefined) return undefined;
      const row = (run: OverheadRun, mode: 'sequential' | 'concurrent', f: SpreadFigures) => [
        `${RUN_NAME[run](c)}, ${mode === 'sequential' ? 'one call at a time' : '32 at a time'}`,
        ratioCell(f.median_ratio), ratioCell(f.p99_ratio), ratioCell(f.cpu_ratio), microsCell(f.added_cpu_us),
      ];
      return [
        `Each ratio round by round (a round: one block of each client, back to back; ${spread.sse.sequential.median_ratio.rounds} rounds), as the median of the rounds, [the interquartile range] and (the extremes) (\`overhead_spread\` in \`latest.json\`); the goals are judged on the upper quartile:`,
        '',
        tableOf(['', 'median ratio', 'p99 ratio', 'CPU ratio', 'CPU the engine adds to a call'],
          OVERHEAD_RUNS.flatMap((run) => (['sequential', 'concurrent'] as const).map((mode) => row(run, mode, spread[run][mode])))),
      ].join('\n');
    },
  },
  {
    name: 'overhead-p99-concurrent', doc: 'docs/performance.md', quotes: 'the p99 ratio 32 at a time, SSE and JSON, over all calls and by round', inline: true,
    render: (c) => {
      const { overhead_spread: spread, overhead_concurrent_p99_ratio: sse, overhead_json_concurrent_p99_ratio: json } = c;
      if (spread === undefined || sse === undefined || json === undefined) return undefined;
      return `The p99 at that concurrency, engine over plain, reads ${r3(sse)} (SSE) and ${r3(json)} (JSON) over all the calls, ` +
        `and by round ${ratioCell(spread.sse.concurrent.p99_ratio)} and ${ratioCell(spread.json.concurrent.p99_ratio)}: a p99 of one block of 256 calls is a handful of calls, and moves a lot from round to round.`;
    },
  },
  {
    name: 'overhead-progress', doc: 'docs/performance.md', quotes: 'the overhead with progress notifications before the result', inline: true,
    render: (c) => {
      const p = c.overhead_spread?.sse_progress;
      if (p === undefined || c.overhead_progress_median_ratio === undefined) return undefined;
      return `with ${c.overhead_progress_notifications} progress notifications before each result, the median ratio is ${ratioCell(p.sequential.median_ratio)} one call at a time ` +
        `and ${ratioCell(p.concurrent.median_ratio)} 32 at a time, and the engine adds ${microsCell(p.sequential.added_cpu_us)} of CPU a call`;
    },
  },
];
