import type { DocBlock } from './doc-block.ts';
import { addedMs, int, kb, budgetKb, lineageOf, mb, plusMs, r3 } from './doc-figures.ts';
import { OVERHEAD_MEDIAN_GOAL } from './goal.ts';
import { ADAPTERS, SIZE_GOAL } from './size.ts';

/** Which answers meet the median goal, and where to read why the others do not. */
const goalReading = (sse: number, json: number) => {
  const met = (ratio: number) => ratio <= OVERHEAD_MEDIAN_GOAL;
  const goal = `the ${OVERHEAD_MEDIAN_GOAL} goal`;
  if (met(sse) && met(json)) return `${goal} is met with both`;
  if (!met(sse) && !met(json)) return `${goal} is missed, the cause is in the doc`;
  return `${goal} is met with ${met(sse) ? 'SSE' : 'JSON'} answers and missed with ${met(sse) ? 'JSON' : 'SSE'} answers, the cause is in the doc`;
};

/**
 * The generated figures of README.md's "Under load": each inline, in a sentence.
 *
 * @example
 * README_BLOCKS.every((b) => b.inline) // true
 */
export const README_BLOCKS: readonly DocBlock[] = [
  {
    name: 'readme-overhead', doc: 'README.md', quotes: 'the overhead on Node', inline: true,
    render: ({ details: { overhead: { sequential: s }, overheadJson: { sequential: j } } }) =>
      `median latency ${r3(s.medianRatio)} × the plain SDK client's on Node with SSE answers and ${r3(j.medianRatio)} × with JSON answers, one call at a time ` +
      `(${plusMs(addedMs(s))} and ${plusMs(addedMs(j))}; ${goalReading(s.medianRatio, j.medianRatio)}); CPU ${r3(s.cpuRatio)} × and ${r3(j.cpuRatio)} ×`,
  },
  {
    name: 'readme-recovery', doc: 'README.md', quotes: 'the requests of one session loss', inline: true,
    render: ({ details: { recovery: { reactive, proactive, workaround } } }) =>
      `${reactive.path.requests} requests (the failed call, \`initialize\`, \`notifications/initialized\`, the replay): ` +
      (reactive.path.roundTrips === workaround.path.roundTrips
        ? `the same ${reactive.path.roundTrips} round trips as reconnecting`
        : `${reactive.path.roundTrips} round trips, reconnecting ${workaround.path.roundTrips}`) +
      (proactive.path.failedRequests === 0 ? '; none fails with `idleBudgetMs`' : `; ${proactive.path.failedRequests} failed with \`idleBudgetMs\``),
  },
  {
    name: 'readme-storm-calls', doc: 'README.md', quotes: 'the calls of a storm', inline: true,
    render: ({ details: { storm } }) => `${storm.calls} calls on one dead session`,
  },
  {
    name: 'readme-storm', doc: 'README.md', quotes: 'the storm', inline: true,
    render: ({ details: { storm: { resilient: r, workaround: w } } }) =>
      `${Math.max(...r.initializes)} \`initialize\` (reconnecting per failed call: ${Math.max(...w.initializes)}); p99 ${int(r.latency.p99Ms)} ms against ${int(w.latency.p99Ms)} ms`,
  },
  {
    name: 'readme-memory-losses', doc: 'README.md', quotes: 'the losses of the memory run', inline: true,
    render: ({ details: { memory } }) => `${int(memory.resilient.losses)} losses`,
  },
  {
    name: 'readme-memory', doc: 'README.md', quotes: 'the heap growth over the losses', inline: true,
    render: ({ details: { memory: { resilient: r } } }) => `heap ${mb(r.heapGrowthBytes)} after GC`,
  },
  {
    name: 'readme-memory-left', doc: 'README.md', quotes: 'the timers and listeners left', inline: true,
    render: ({ details: { memory: { resilient: r } } }) => `${int(r.timersLeaked)} timers and ${int(r.listenersLeaked)} abort listeners left`,
  },
  {
    name: 'readme-size', doc: 'README.md', quotes: 'the sizes', inline: true,
    render: ({ details: { size } }) => {
      const alone = ADAPTERS.map((a) => [a, size.adapters[a].alone.gzipBytes] as const).sort((x, y) => x[1] - y[1]);
      const [least, most] = [alone[0]!, alone[alone.length - 1]!];
      const name = (a: string) => ({ node: 'Node', deno: 'Deno', cloudflare: 'Cloudflare', browser: 'browser' })[a] ?? a;
      const goal = (bytes: number, g: number) => (bytes <= g ? 'met' : 'missed');
      return `core ${kb(size.core.gzipBytes)} (goal ${budgetKb(SIZE_GOAL.core)}, ${goal(size.core.gzipBytes, SIZE_GOAL.core)}), ` +
        `engine without core ${kb(size.engine.gzipBytes)} (goal ${budgetKb(SIZE_GOAL.engine)}, ${goal(size.engine.gzipBytes, SIZE_GOAL.engine)}); ` +
        `each adapter's own code ${(least[1] / 1024).toFixed(2)} (${name(least[0])}) to ${kb(most[1])} (${name(most[0])})`;
    },
  },
  {
    name: 'readme-lineage-memory', doc: 'README.md', quotes: 'the many-clients memory run (memory.clients)', inline: true,
    render: (c) => {
      const l = lineageOf(c);
      return l === undefined ? undefined
        : ` In \`pnpm bench\`'s memory run, ${int(l.clients)} clients on one fetch grow the heap by ${mb(l.heapGrowthBytes)}, with ${int(l.failedCalls)} failed calls.`;
    },
  },
];
