// The generated stretches of docs/performance.md's Storm section: the engine against a workaround
// whose failed calls share one reconnect (the baseline) and against the naive one, storm by storm.
import type { CommittedResults } from './committed-results.ts';
import type { DocBlock } from './doc-block.ts';
import { int, r2, tableOf } from './doc-figures.ts';
import type { StormResult, StormSide } from './storm.ts';

/** The storm of a run that measured the sharing workaround, or none (an older run: its blocks stay empty). */
const stormOf = (c: CommittedResults): StormResult | undefined => ('sharedWorkaround' in c.details.storm ? c.details.storm : undefined);

/**
 * A spread of ratios as the docs write it: the median, then the interquartile range and the extremes.
 *
 * @example
 * spreadRatio({ rounds: 5, median: 1.06, q1: 0.97, q3: 1.16, min: 0.88, max: 1.25 }, 'storms'); // '1.06 × (IQR 0.97–1.16, range 0.88–1.25, 5 storms)'
 */
export const spreadRatio = (s: { rounds: number; median: number; q1: number; q3: number; min: number; max: number }, of = 'rounds') =>
  `${r2(s.median)} × (IQR ${r2(s.q1)}–${r2(s.q3)}, range ${r2(s.min)}–${r2(s.max)}, ${s.rounds} ${of})`;

/**
 * The Storm section's blocks: the storms measured, the table of the three sides, and the engine's
 * p99 against the sharing workaround's, storm by storm.
 *
 * @example
 * STORM_BLOCKS.map((b) => b.name); // ['storm-size', 'storm', 'storm-p99']
 */
export const STORM_BLOCKS: readonly DocBlock[] = [
  {
    name: 'storm-size', doc: 'docs/performance.md', quotes: 'the storms measured', inline: true,
    render: (c) => {
      const storm = stormOf(c);
      return storm && `${storm.calls} concurrent calls on one client, whose session the server has just evicted (${storm.storms} storm${storm.storms > 1 ? 's' : ''} on each side, ${int(storm.resilient.latency.n)} calls each)`;
    },
  },
  {
    name: 'storm', doc: 'docs/performance.md', quotes: 'the storm table (engine, sharing workaround, naive workaround)', inline: false,
    render: (c) => {
      const storm = stormOf(c);
      if (storm === undefined) return undefined;
      const s = (name: string, side: StormSide, bold: boolean) => [
        name, bold ? `**${side.initializes.join(', ')}**` : side.initializes.join(', '), `${side.failedCalls}`,
        `${int(side.latency.medianMs)} ms`, `${int(side.latency.p99Ms)} ms`, side.p99MsByStorm.map((ms) => int(ms)).join(', '), `${r2(side.p99Ratio)} ×`,
      ];
      return tableOf(['', '`initialize` requests per storm', 'failed calls', 'median', 'p99', 'p99 of each storm (ms)', `p99 × ${storm.calls} healthy concurrent calls`], [
        s('engine', storm.resilient, true),
        s('workaround sharing one reconnect (the baseline)', storm.sharedWorkaround, false),
        s('workaround reconnecting per failed call', storm.workaround, false),
      ]);
    },
  },
  {
    name: 'storm-p99', doc: 'docs/performance.md', quotes: "the engine's storm p99 against the sharing workaround's, storm by storm", inline: true,
    render: (c) => {
      const storm = stormOf(c);
      return storm && spreadRatio(storm.p99VsShared, 'storms');
    },
  },
];
