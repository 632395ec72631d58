import type { CommittedResults, SseOnlyNodeLines } from './committed-results.ts';
import type { DocBlock } from './doc-block.ts';
import { addedCpu, addedMs, budgetKb, day, int, kb, lineageOf, mb, minus, ms, pct, plusMs, r2, r3, tableOf } from './doc-figures.ts';
import type { MemoryResult } from './memory.ts';
import { NODE_LINES_FORMATS, nodeLineNames, type NodeLinesSummary, type NodeLineSummary } from './node-lines-summary.ts';
import type { OverheadResult } from './overhead.ts';
import type { RecoveryResult } from './recovery.ts';
import { ADAPTER_BUDGET, ADAPTERS, SIZE_BUDGET, SIZE_GOAL } from './size.ts';
import { STORM_BLOCKS } from './storm-blocks.ts';
import { OVERHEAD_SPREAD_BLOCKS } from './overhead-spread-blocks.ts';

const SECTION: readonly [string, string][] = [['overhead', 'Overhead'], ['recovery', 'Recovery cost'], ['storm', 'Storm'], ['memory', 'Memory'], ['size', 'Size']];
const sectionLink = (goal: string) => {
  const found = SECTION.find(([prefix]) => goal.startsWith(prefix));
  return found ? `, see [${found[1]}](#${found[1].toLowerCase().replace(/ /g, '-')})` : '';
};

/** What the recovery table says of a request off the call's path. */
const OFF_PATH: Readonly<Record<string, string>> = { 'DELETE 200': ' (the old session, not waited for)', 'GET 405': ' (its new GET stream, refused)' };

function overheadRows(c: CommittedResults): string[][] {
  const o = (answers: string, concurrent: boolean, x: OverheadResult['sequential']) => {
    const side = (s: typeof x.plain) => `${ms(s.latency.medianMs, concurrent ? 1 : 2)} / ${ms(s.latency.p99Ms, 1)} / ${int(s.cpuMicrosPerCall)} µs`;
    const median = concurrent ? r3(x.medianRatio) : `**${r3(x.medianRatio)}**`;
    return [`${answers}, ${concurrent ? '32 at a time' : 'one call at a time'} (${int(x.plain.latency.n)} calls)`, side(x.plain), side(x.resilient), `${median} / ${r3(x.p99Ratio)} / ${r3(x.cpuRatio)}`];
  };
  const { overhead, overheadJson, overheadProgress: p } = c.details;
  const progress = p === undefined ? [] : [o(`SSE, ${c.overhead_progress_notifications} progress notifications first`, false, p.sequential), o(`SSE, ${c.overhead_progress_notifications} progress notifications first`, true, p.concurrent)];
  return [o('SSE', false, overhead.sequential), o('SSE', true, overhead.concurrent), o('JSON', false, overheadJson.sequential), o('JSON', true, overheadJson.concurrent), ...progress];
}

/** `85 µs more`, `117 µs less`: the engine's CPU a call against the plain client's. */
const moreOrLess = (micros: number) => `${int(Math.abs(micros))} µs ${micros >= 0 ? 'more' : 'less'}`;
const isSseOnly = (lines: NodeLinesSummary | SseOnlyNodeLines): lines is SseOnlyNodeLines => !NODE_LINES_FORMATS.every((f) => f in lines);

/** The table of a run that measured SSE answers only on each Node line (before JSON was measured there too). */
function sseOnlyNodeLinesTable(lines: SseOnlyNodeLines): string {
  return tableOf(
    ['line', 'Node', 'ratio: median / p99 / CPU', 'CPU a call, plain → engine', '32 at a time: median / CPU ratio'],
    Object.entries(lines).map(([line, l]) => 'failure' in l
      ? [line, l.node ?? '—', l.skipped ? `skipped: ${l.failure}` : `no figures: ${l.failure}`, '', '']
      : [line, l.node, `**${r3(l.median_ratio)}** / ${r3(l.p99_ratio)} / ${r3(l.cpu_ratio)}`, `${int(l.plain_cpu_us)} → ${int(l.resilient_cpu_us)} µs`, `${r3(l.concurrent_median_ratio)} / ${r3(l.concurrent_cpu_ratio)}`]),
  );
}

/** A row per Node line; for each answer format its median ratio one call at a time and 32 at a time, and its CPU a call, plain → engine. */
function nodeLinesByFormatTable(lines: NodeLinesSummary): string {
  const cells = (l: NodeLineSummary | undefined) => l === undefined ? ['not measured', '', '']
    : 'failure' in l ? [l.skipped ? `skipped: ${l.failure}` : `no figures: ${l.failure}`, '', '']
    : [`**${r3(l.median_ratio)}**`, r3(l.concurrent_median_ratio), `${int(l.plain_cpu_us)} → ${int(l.resilient_cpu_us)} µs (${l.added_cpu_us >= 0 ? '+' : ''}${int(l.added_cpu_us)})`];
  return tableOf(
    ['line', 'Node', ...NODE_LINES_FORMATS.flatMap((f) => [`${f.toUpperCase()}: median ratio, one at a time`, `${f.toUpperCase()}: median ratio, 32 at a time`, `${f.toUpperCase()}: CPU a call, plain → engine`])],
    nodeLineNames(lines).map((name) => [
      name, NODE_LINES_FORMATS.map((f) => lines[f][name]?.node).find((n) => n !== undefined) ?? '—',
      ...NODE_LINES_FORMATS.flatMap((f) => cells(lines[f][name])),
    ]),
  );
}

/**
 * The generated stretches of docs/performance.md: the machine, the goals, and each measurement's table and figures.
 *
 * @example
 * PERFORMANCE_BLOCKS.map((b) => b.name) // ['machine', 'goals', 'overhead', …]
 */
export const PERFORMANCE_BLOCKS: readonly DocBlock[] = [
  ...OVERHEAD_SPREAD_BLOCKS,
  ...STORM_BLOCKS,
  {
    name: 'machine', doc: 'docs/performance.md', quotes: 'the machine, date and length of the committed run', inline: false,
    render: ({ machine: m, date, wallSeconds, quick }) =>
      `**Machine:** ${m.cores} cores (${m.cpu}), ${Math.round(m.memoryBytes / 1024 ** 3)} GiB, ${m.platform.replace(/^linux/, 'Linux')}, Node ${m.node}. ` +
      `Run of ${day(date)}, \`pnpm bench${quick ? ' --quick' : ''}\` (${quick ? 'quick' : 'full'} sizes), ${wallSeconds} s.`,
  },
  {
    name: 'goals', doc: 'docs/performance.md', quotes: 'the goals as the committed run checked them', inline: false,
    render: ({ goals }) => tableOf(['goal', 'target', 'measured', ''], goals.map((g) => [
      g.name, g.goal, minus(g.measured), g.met ? 'met' : g.counted ? '**missed** (the run fails)' : g.verdict === 'unclear' ? `unclear: the rounds straddle it${sectionLink(g.name)}` : `missed${sectionLink(g.name)}`,
    ])),
  },
  {
    name: 'overhead', doc: 'docs/performance.md', quotes: 'the overhead table (latency and CPU a call, plain and engine, SSE and JSON)', inline: false,
    render: (c) => tableOf(['', 'plain SDK: median / p99 / CPU a call', 'engine: median / p99 / CPU a call', 'ratio: median / p99 / CPU'], overheadRows(c)),
  },
  {
    name: 'overhead-node-lines', doc: 'docs/performance.md', quotes: 'the overhead by Node line (overhead_node_lines)', inline: false,
    render: ({ overhead_node_lines: lines }) => lines === undefined ? undefined : isSseOnly(lines) ? [
      'The same measurement on SSE answers on each Node line, one line after another against one chaos server, each in a child process of its own Node binary (`overhead_node_lines` in `latest.json`):',
      '',
      sseOnlyNodeLinesTable(lines),
    ].join('\n') : [
      'The same measurement on each Node line, SSE answers on every line and then JSON answers on every line, one measurement after another against one chaos server, each in a child process of its own Node binary (`overhead_node_lines` in `latest.json`, with the p99 and CPU ratios):',
      '',
      nodeLinesByFormatTable(lines),
    ].join('\n'),
  },
  {
    name: 'overhead-cpu', doc: 'docs/performance.md', quotes: 'the CPU the engine adds to a call, one call at a time', inline: true,
    render: ({ details: d }) => `${moreOrLess(addedCpu(d.overhead.sequential))} (SSE answers) and ${moreOrLess(addedCpu(d.overheadJson.sequential))} (JSON answers)`,
  },
  {
    name: 'overhead-median', doc: 'docs/performance.md', quotes: 'the latency the engine adds at the median, one call at a time', inline: true,
    render: ({ details: { overhead: { sequential: s }, overheadJson: { sequential: j } } }) =>
      `${plusMs(addedMs(s))} on a ${ms(s.plain.latency.medianMs, 2)} SSE call (${pct(s.medianRatio)}) and ${plusMs(addedMs(j))} on a ${ms(j.plain.latency.medianMs, 2)} JSON call (${pct(j.medianRatio)})`,
  },
  {
    name: 'recovery', doc: 'docs/performance.md', quotes: 'the recovery table (requests, round trips, latency)', inline: false,
    render: ({ details: { recovery } }) => {
      const r = (name: string, v: RecoveryResult['reactive'], bold: boolean) => {
        const counts = `${v.path.requests}, ${v.path.failedRequests} failed`;
        return [name, `${v.path.sequence.map((s) => `\`${s}\`${OFF_PATH[s] ?? ''}`).join(' → ')}: ${bold ? `**${counts}**` : counts}`, `${v.path.roundTrips}`, `${ms(v.latency.medianMs, 1)} (${r2(v.latencyRatio)} ×)`];
      };
      return tableOf(['', 'requests the server saw', 'round trips', 'latency of that call, median (× a healthy call)'], [
        r('engine', recovery.reactive, true),
        r("engine with `idleBudgetMs` (server's idle budget 2 s, client's 100 ms, call after 200 ms idle)", recovery.proactive, true),
        r('workaround: catch, new client, connect, call again', recovery.workaround, false),
      ]);
    },
  },
  {
    name: 'recovery-trials', doc: 'docs/performance.md', quotes: 'the recovery trials and their paths', inline: true,
    render: ({ details: { recovery: { reactive, proactive, workaround } } }) => {
      const paths = Math.max(reactive.distinctPaths, proactive.distinctPaths, workaround.distinctPaths);
      const trials = `${int(reactive.latency.n)} trials (${int(proactive.latency.n)} with \`idleBudgetMs\`)`;
      return paths === 1 ? `Every one of the ${trials} took the same requests.` : `The ${trials} took up to ${paths} different paths.`;
    },
  },
  {
    name: 'recovery-ratios', doc: 'docs/performance.md', quotes: 'the recovery latency against a healthy call, engine and workaround', inline: true,
    render: ({ details: { recovery } }) => `${r2(recovery.reactive.latencyRatio)} × for the engine and ${r2(recovery.workaround.latencyRatio)} × for the workaround`,
  },
  {
    name: 'memory-losses', doc: 'docs/performance.md', quotes: 'the losses of the memory run', inline: true,
    render: ({ details: { memory } }) => `${int(memory.resilient.losses)} session losses`,
  },
  {
    name: 'memory', doc: 'docs/performance.md', quotes: 'the memory table', inline: false,
    render: ({ details: { memory } }) => {
      const m = (name: string, x: MemoryResult, bold: boolean) => [
        name, int(x.calls), int(x.losses), int(x.recoveries), bold ? `**${mb(x.heapGrowthBytes)}**` : mb(x.heapGrowthBytes),
        x.arrayBuffersGrowthBytes === 0 ? '0' : mb(x.arrayBuffersGrowthBytes), int(x.timersLeaked), int(x.listenersLeaked),
      ];
      return tableOf(['', 'calls', 'losses', 'recoveries', 'heap growth', 'ArrayBuffers growth', 'timers left', 'abort listeners left'], [
        m('engine', memory.resilient, true), m('plain SDK client, no loss (baseline)', memory.baseline, false),
      ]);
    },
  },
  {
    name: 'memory-reading', doc: 'docs/performance.md', quotes: 'the heap growth over the losses', inline: true,
    render: ({ details: { memory: { resilient: r } } }) => r.heapGrowthBytes <= 0
      ? `After ${int(r.recoveries)} recoveries the heap is ${mb(-r.heapGrowthBytes)} smaller than before them.`
      : `The heap grows by ${mb(r.heapGrowthBytes)} for ${int(r.recoveries)} recoveries, about ${int(r.heapGrowthBytes / r.recoveries)} bytes each if it were all theirs.`,
  },
  {
    name: 'lineage-memory', doc: 'docs/performance.md', quotes: 'the many-clients memory run (memory.clients)', inline: false,
    render: (c) => {
      const l = lineageOf(c);
      return l === undefined ? undefined
        : `**Many clients on one fetch.** ${int(l.clients)} clients, each with its own token, opened, called once and let go on one shared fetch (half ended with a DELETE, half only closed), after a warm-up past the fetch's bound on lineages: heap growth **${mb(l.heapGrowthBytes)}**, ${int(l.failedCalls)} failed calls.`;
    },
  },
  {
    name: 'size', doc: 'docs/performance.md', quotes: 'the size table (engine with core, then its parts)', inline: false,
    render: ({ details: { size } }) => tableOf(['', 'minified', 'min+gzip', 'goal', 'CI budget'], [
      ['**engine with the core it uses: what an application ships**', kb(size.engineWithCore.minifiedBytes), `**${kb(size.engineWithCore.gzipBytes)}**`, `${budgetKb(SIZE_GOAL.engineWithCore)} (the two below, summed)`, budgetKb(SIZE_BUDGET.engineWithCore)],
      ['of it: core, the whole public API', kb(size.core.minifiedBytes), kb(size.core.gzipBytes), budgetKb(SIZE_GOAL.core), budgetKb(SIZE_BUDGET.core)],
      ['of it: engine (`@mcp-resilience/client`) without core', kb(size.engine.minifiedBytes), kb(size.engine.gzipBytes), budgetKb(SIZE_GOAL.engine), budgetKb(SIZE_BUDGET.engine)],
    ]),
  },
  {
    name: 'size-bytes', doc: 'docs/performance.md', quotes: 'core, engine and engine with core in bytes', inline: true,
    render: ({ details: { size } }) => `${int(size.core.gzipBytes)}, ${int(size.engine.gzipBytes)} and ${int(size.engineWithCore.gzipBytes)} bytes`,
  },
  {
    name: 'size-adapters', doc: 'docs/performance.md', quotes: "the adapters' size table", inline: false,
    render: ({ details: { size } }) => tableOf(['', 'alone: minified', 'alone: min+gzip', 'CI budget', 'with engine and core: min+gzip'], ADAPTERS.map((a) => [
      `\`@mcp-resilience/${a}\``, kb(size.adapters[a].alone.minifiedBytes), `**${kb(size.adapters[a].alone.gzipBytes)}**`, budgetKb(ADAPTER_BUDGET[a]), kb(size.adapters[a].withEngineAndCore.gzipBytes),
    ])),
  },
];
