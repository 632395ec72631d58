import type { DocBlock } from './doc-block.ts';
import { budgetKb, int, kb, lineageOf, mb, r3 } from './doc-figures.ts';
import { microsCell } from './overhead-spread-blocks.ts';
import { overheadGoals } from './overhead-summary.ts';
import { ADAPTERS, SIZE_BUDGET } from './size.ts';

/** How many of the healthy-path goals the run met, and which it did not. */
const goalReading = (goals: ReturnType<typeof overheadGoals>) => {
  const short = (name: string) => name.replace(/^overhead, /, '').replace('median latency, ', '').replace('CPU the engine adds to a call', 'CPU added');
  const by = (verdict: string) => goals.filter((g) => g.verdict === verdict).map((g) => short(g.name));
  const [missed, unclear] = [by('missed'), by('unclear')];
  return `healthy-path goals judged on the upper quartile of the rounds: ${goals.length - missed.length - unclear.length} of ${goals.length} met` +
    (missed.length > 0 ? `; missed: ${missed.join(', ')}` : '') + (unclear.length > 0 ? `; unclear: ${unclear.join(', ')}` : '');
};

/**
 * The generated figures of README.md's "Under load": each inline, in a sentence.
 *
 * @example
 * README_BLOCKS.every((b) => b.inline) // true
 */
export const README_BLOCKS: readonly DocBlock[] = [
  {
    name: 'readme-machine', doc: 'README.md', quotes: 'the machine of the committed run', inline: true,
    render: ({ machine: m }) => `${m.cores} cores, Node ${m.node.replace(/^v(\d+)\..*/, '$1')}`,
  },
  {
    name: 'readme-overhead', doc: 'README.md', quotes: 'the overhead on Node, by round', inline: true,
    render: ({ overhead_spread: spread }) => {
      if (spread === undefined) return undefined;
      const m = (x: { median: number; q1: number; q3: number }) => `${r3(x.median)} × (IQR ${r3(x.q1)}–${r3(x.q3)})`;
      return `median latency over the plain SDK client's on Node, median of the rounds: one call at a time ${m(spread.sse.sequential.median_ratio)} with SSE answers, ` +
        `${m(spread.json.sequential.median_ratio)} with JSON answers, ${m(spread.sse_progress.sequential.median_ratio)} with progress notifications before the result; ` +
        `32 at a time ${m(spread.sse.concurrent.median_ratio)}, ${m(spread.json.concurrent.median_ratio)} and ${m(spread.sse_progress.concurrent.median_ratio)}; ` +
        `CPU added a call ${microsCell(spread.sse.sequential.added_cpu_us)}, ${microsCell(spread.json.sequential.added_cpu_us)} and ${microsCell(spread.sse_progress.sequential.added_cpu_us)} ` +
        `(${goalReading(overheadGoals(spread))})`;
    },
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
    name: 'readme-storm', doc: 'README.md', quotes: 'the storm, against the sharing and the naive workaround', inline: true,
    render: ({ details: { storm } }) => {
      if (!('sharedWorkaround' in storm)) return undefined;
      const { resilient: r, sharedWorkaround: s, workaround: w, p99VsShared: v } = storm;
      return `${Math.max(...r.initializes)} \`initialize\`, as many as an application whose failed calls share one reconnect (${Math.max(...s.initializes)}; reconnecting per failed call: ${Math.max(...w.initializes)}); ` +
        `p99 ${int(r.latency.p99Ms)} ms, against ${int(s.latency.p99Ms)} ms and ${int(w.latency.p99Ms)} ms; the engine's p99 over the sharing workaround's, storm by storm: ${r3(v.median)} × (range ${r3(v.min)}–${r3(v.max)}, ${v.rounds} storms)`;
    },
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
      return `**${kb(size.engineWithCore.gzipBytes)}**, what an application ships: the engine with the core it uses (CI budget ${budgetKb(SIZE_BUDGET.engineWithCore)}); of it, ` +
        `core ${kb(size.core.gzipBytes)} and the engine without core ${kb(size.engine.gzipBytes)}; ` +
        `each adapter's own code ${(least[1] / 1024).toFixed(2)} (${name(least[0])}) to ${kb(most[1])} (${name(most[0])}) on top`;
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
