// The benchmark figures README.md and docs/performance.md quote, generated from one source: the
// committed bench/results/latest.json. Each figure sits between markers in its doc,
//
//   <!-- bench:NAME -->…<!-- /bench -->
//
// on lines of their own (a table, a paragraph) or inline (a figure in a sentence or a table cell).
// `pnpm bench:docs` (and a full `pnpm bench`, after it writes latest.json) rewrites what is between
// them; docs.test.ts fails when a doc says something else than the committed file.
// A block whose figures the committed file lacks (a key added after its run) is left empty, so
// that no doc quotes a figure no committed run measured.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { LineageMemoryResult } from './lineage-memory.ts';
import type { MemoryResult } from './memory.ts';
import type { OverheadResult } from './overhead.ts';
import type { RecoveryResult } from './recovery.ts';
import { NODE_LINES_FORMATS, nodeLineNames, OVERHEAD_MEDIAN_GOAL, type BenchSummary, type Goal, type NodeLineFailure, type NodeLineFigures, type NodeLinesSummary, type NodeLineSummary } from './report.ts';
import { ADAPTER_BUDGET, ADAPTERS, SIZE_BUDGET, SIZE_GOAL, type SizeReport } from './size.ts';
import type { StormResult } from './storm.ts';

/** The repository's root, which the docs' paths are relative to. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The committed results the docs quote. */
export const COMMITTED_RESULTS = 'bench/results/latest.json';

/**
 * `overhead_node_lines` as runs before JSON answers were measured on every Node line wrote it: SSE
 * figures only, keyed by line (`node20`, …), without `added_cpu_us`.
 *
 * @example
 * const older: SseOnlyNodeLines = { node26: { node: 'v26.12.1', median_ratio: 1.028, p99_ratio: 0.74, cpu_ratio: 1.002, plain_cpu_us: 643, resilient_cpu_us: 644, concurrent_median_ratio: 1.275, concurrent_cpu_ratio: 1.458 } };
 */
export type SseOnlyNodeLines = Readonly<Record<string, Omit<NodeLineFigures, 'added_cpu_us'> | NodeLineFailure>>;

/**
 * `bench/results/latest.json` as committed: a full run's summary, with the keys a run older than
 * the current `pnpm bench` may lack left optional (`overhead_node_lines`, the lineage memory run),
 * and `overhead_node_lines` in either shape (SSE only, or each answer format).
 */
export type CommittedResults = Omit<Partial<BenchSummary>, 'overhead_node_lines'> & {
  readonly overhead_node_lines?: NodeLinesSummary | SseOnlyNodeLines;
  readonly quick: boolean;
  readonly date: string;
  readonly wallSeconds: number;
  readonly machine: { readonly node: string; readonly platform: string; readonly cpu: string; readonly cores: number; readonly memoryBytes: number };
  readonly goals: readonly Goal[];
  readonly details: {
    readonly size: SizeReport;
    readonly overhead: OverheadResult;
    readonly overheadJson: OverheadResult;
    readonly recovery: RecoveryResult;
    readonly storm: StormResult;
    readonly memory: { readonly resilient: MemoryResult; readonly baseline: MemoryResult; readonly clients?: LineageMemoryResult };
  };
};

/** One generated stretch of a doc. `render` answers undefined when the committed file lacks its figures. */
export interface DocBlock {
  readonly name: string;
  readonly doc: 'README.md' | 'docs/performance.md';
  /** What it quotes, for a failure message. */
  readonly quotes: string;
  /** Inline: inside a sentence or a table cell, one line. Otherwise lines of their own. */
  readonly inline: boolean;
  readonly render: (c: CommittedResults) => string | undefined;
}

const minus = (text: string) => text.replace(/(^|[^\w.])-(?=\d)/g, '$1−');
const int = (n: number) => minus(Math.round(n).toLocaleString('en-US'));
const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`;
const budgetKb = (bytes: number) => `${Number((bytes / 1024).toFixed(2))} KB`;
const mb = (bytes: number) => minus(`${(bytes / 1024 / 1024).toFixed(2)} MB`);
const r3 = (ratio: number) => ratio.toFixed(3);
const r2 = (ratio: number) => ratio.toFixed(2);
const ms = (value: number, digits: number) => `${minus(value.toFixed(digits))} ms`;
const plusMs = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)} ms`;
const pct = (ratio: number) => `${minus(((ratio - 1) * 100).toFixed(1))} %`;
const row = (cells: readonly string[]) => `|${cells.map((c) => (c === '' ? ' ' : ` ${c} `)).join('|')}|`;
const tableOf = (head: readonly string[], rows: readonly (readonly string[])[]) =>
  [row(head), `|${head.map(() => '---').join('|')}|`, ...rows.map(row)].join('\n');
/** The dates of runs, as the docs write them. */
const day = (iso: string) => iso.slice(0, 10);
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
  const { overhead, overheadJson } = c.details;
  return [o('SSE', false, overhead.sequential), o('SSE', true, overhead.concurrent), o('JSON', false, overheadJson.sequential), o('JSON', true, overheadJson.concurrent)];
}

const addedMs = (x: OverheadResult['sequential']) => x.resilient.latency.medianMs - x.plain.latency.medianMs;
const addedCpu = (x: OverheadResult['sequential']) => x.resilient.cpuMicrosPerCall - x.plain.cpuMicrosPerCall;
/** `85 µs more`, `117 µs less`: the engine's CPU a call against the plain client's. */
const moreOrLess = (micros: number) => `${int(Math.abs(micros))} µs ${micros >= 0 ? 'more' : 'less'}`;
/** Which answers meet the median goal, and where to read why the others do not. */
const goalReading = (sse: number, json: number) => {
  const met = (ratio: number) => ratio <= OVERHEAD_MEDIAN_GOAL;
  const goal = `the ${OVERHEAD_MEDIAN_GOAL} goal`;
  if (met(sse) && met(json)) return `${goal} is met with both`;
  if (!met(sse) && !met(json)) return `${goal} is missed, the cause is in the doc`;
  return `${goal} is met with ${met(sse) ? 'SSE' : 'JSON'} answers and missed with ${met(sse) ? 'JSON' : 'SSE'} answers, the cause is in the doc`;
};

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

function lineageOf(c: CommittedResults): LineageMemoryResult | undefined {
  return c.details.memory.clients;
}

/** Every generated stretch of README.md and docs/performance.md. */
export const BLOCKS: readonly DocBlock[] = [
  // docs/performance.md
  {
    name: 'machine', doc: 'docs/performance.md', quotes: 'the machine, date and length of the committed run', inline: false,
    render: ({ machine: m, date, wallSeconds, quick }) =>
      `**Machine:** ${m.cores} cores (${m.cpu}), ${Math.round(m.memoryBytes / 1024 ** 3)} GiB, ${m.platform.replace(/^linux/, 'Linux')}, Node ${m.node}. ` +
      `Run of ${day(date)}, \`pnpm bench${quick ? ' --quick' : ''}\` (${quick ? 'quick' : 'full'} sizes), ${wallSeconds} s.`,
  },
  {
    name: 'goals', doc: 'docs/performance.md', quotes: 'the goals as the committed run checked them', inline: false,
    render: ({ goals }) => tableOf(['goal', 'target', 'measured', ''], goals.map((g) => [
      g.name, g.goal, minus(g.measured), g.met ? 'met' : g.counted ? '**missed** (the run fails)' : `missed${sectionLink(g.name)}`,
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
    name: 'storm-size', doc: 'docs/performance.md', quotes: 'the storms measured', inline: true,
    render: ({ details: { storm } }) => `${storm.calls} concurrent calls on one client, whose session the server has just evicted (${storm.storms} storm${storm.storms > 1 ? 's' : ''}, ${int(storm.resilient.latency.n)} calls)`,
  },
  {
    name: 'storm', doc: 'docs/performance.md', quotes: 'the storm table', inline: false,
    render: ({ details: { storm } }) => {
      const s = (name: string, side: StormResult['resilient'], bold: boolean) => [
        name, bold ? `**${side.initializes.join(', ')}**` : side.initializes.join(', '), `${side.failedCalls}`,
        `${int(side.latency.medianMs)} ms`, `${int(side.latency.p99Ms)} ms`, `${r2(side.p99Ratio)} ×`,
      ];
      return tableOf(['', '`initialize` requests per storm', 'failed calls', 'median', 'p99', `p99 × ${storm.calls} healthy concurrent calls`], [
        s('engine', storm.resilient, true), s('workaround', storm.workaround, false),
      ]);
    },
  },
  {
    name: 'storm-p99', doc: 'docs/performance.md', quotes: "the storm's p99 against a healthy burst", inline: true,
    render: ({ details: { storm } }) => `${r2(storm.resilient.p99Ratio)} × that of a healthy burst (the workaround's: ${r2(storm.workaround.p99Ratio)} ×)`,
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
    name: 'size', doc: 'docs/performance.md', quotes: 'the size table (core, engine, engine with core)', inline: false,
    render: ({ details: { size } }) => tableOf(['', 'minified', 'min+gzip', 'goal', 'CI budget'], [
      ['core, the whole public API', kb(size.core.minifiedBytes), `**${kb(size.core.gzipBytes)}**`, budgetKb(SIZE_GOAL.core), budgetKb(SIZE_BUDGET.core)],
      ['engine (`@mcp-resilience/client`) without core', kb(size.engine.minifiedBytes), `**${kb(size.engine.gzipBytes)}**`, budgetKb(SIZE_GOAL.engine), budgetKb(SIZE_BUDGET.engine)],
      ['engine with the core it uses (what an application ships)', kb(size.engineWithCore.minifiedBytes), kb(size.engineWithCore.gzipBytes), '', ''],
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
  {
    name: 'engine-with-core', doc: 'docs/performance.md', quotes: 'the engine with core, min+gzip', inline: true,
    render: ({ details: { size } }) => kb(size.engineWithCore.gzipBytes),
  },
  // README.md, "Under load"
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

/** The docs the blocks are in, relative to the repository's root. */
export const DOCS = [...new Set(BLOCKS.map((b) => b.doc))];

const MARKER = /<!-- bench:([a-z0-9-]+) -->([\s\S]*?)<!-- \/bench -->/g;

/** What goes between a block's markers for these results: empty when the results lack its figures. */
export function contentOf(block: DocBlock, results: CommittedResults): string {
  const text = block.render(results);
  if (block.inline) {
    if (text?.includes('\n')) throw new Error(`bench:${block.name} is inline, and rendered more than one line`);
    return text ?? '';
  }
  return text === undefined ? '\n' : `\n${text}\n`;
}

/**
 * The doc with every block rewritten from the results.
 *
 * @example
 * renderDoc('a <!-- bench:readme-memory -->?<!-- /bench --> b', 'README.md', results); // 'a <!-- bench:readme-memory -->heap −0.21 MB after GC<!-- /bench --> b'
 */
export function renderDoc(text: string, doc: string, results: CommittedResults): string {
  return text.replace(MARKER, (whole, name: string) => {
    const block = BLOCKS.find((b) => b.name === name && b.doc === doc);
    if (block === undefined) throw new Error(`${doc}: <!-- bench:${name} --> is no block of ${doc} (bench/src/docs.ts)`);
    return `<!-- bench:${name} -->${contentOf(block, results)}<!-- /bench -->`;
  });
}

/**
 * Where a doc says something else than the results: one sentence per block, naming the block, what
 * it quotes, the doc's text and the results' (the first line that differs). Empty when they agree.
 */
export function docDifferences(text: string, doc: string, results: CommittedResults, source = COMMITTED_RESULTS): string[] {
  const found = new Map<string, string[]>();
  for (const [, name, content] of text.matchAll(MARKER)) found.set(name!, [...(found.get(name!) ?? []), content!]);
  const problems: string[] = [];
  for (const name of found.keys()) {
    if (!BLOCKS.some((b) => b.name === name && b.doc === doc)) problems.push(`${doc}: <!-- bench:${name} --> is no block of ${doc} (bench/src/docs.ts)`);
  }
  for (const block of BLOCKS.filter((b) => b.doc === doc)) {
    const contents = found.get(block.name) ?? [];
    if (contents.length !== 1) {
      problems.push(`${doc}: bench:${block.name} (${block.quotes}) appears ${contents.length} times, not once`);
      continue;
    }
    const want = contentOf(block, results);
    if (contents[0] === want) continue;
    const have = contents[0]!.split('\n');
    const wanted = want.split('\n');
    const at = Math.max(0, have.findIndex((line, i) => line !== wanted[i]));
    const line = (lines: string[]) => (at < lines.length ? lines[at]!.trim() || '(an empty line)' : '(nothing)');
    problems.push(`${doc}: bench:${block.name} (${block.quotes}) says "${line(have)}", the committed ${source} gives "${want.trim() === '' ? `nothing (its run has no such figures)` : line(wanted)}"`);
  }
  return problems;
}

/** The committed results, read from the repository. */
export function readCommittedResults(path = `${ROOT}${COMMITTED_RESULTS}`): CommittedResults {
  return JSON.parse(readFileSync(path, 'utf8')) as CommittedResults;
}

/**
 * Rewrites every doc's blocks from the results; answers the docs it changed.
 *
 * @example
 * writeDocs(readCommittedResults()); // ['README.md'] after a full run moved a README figure
 */
export function writeDocs(results: CommittedResults, root = ROOT): string[] {
  const changed: string[] = [];
  for (const doc of DOCS) {
    const path = `${root}${doc}`;
    const before = readFileSync(path, 'utf8');
    const after = renderDoc(before, doc, results);
    if (after !== before) {
      writeFileSync(path, after);
      changed.push(doc);
    }
  }
  return changed;
}
