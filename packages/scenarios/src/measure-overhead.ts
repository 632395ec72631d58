import { SDK_TIMEOUT_MS } from './call-outcome.ts';
import { ScenarioError } from './errors.ts';
import type { ScenarioClient, ScenarioHost } from './host.ts';
import { compare, emptySample, type OverheadComparison, type OverheadSample } from './overhead-compare.ts';
import { newClient } from './run-scenario.ts';
import type { RuntimeName } from './scenario.ts';

/**
 * How many calls an overhead measurement makes, on each of the two clients.
 *
 * @example
 * const size: OverheadSize = { warmupCalls: 50, rounds: 10, sequentialCalls: 30, concurrentCallsPerWorker: 3 };
 */
export interface OverheadSize {
  readonly warmupCalls: number;
  /** Rounds; each runs one block per client, their order alternating round by round (ABBA). */
  readonly rounds: number;
  /** Calls per block, one after another. */
  readonly sequentialCalls: number;
  /** Calls per concurrent worker per block ({@link OVERHEAD_CONCURRENCY} workers); 0: no concurrent blocks. */
  readonly concurrentCallsPerWorker: number;
}

/**
 * How many calls run at once in a concurrent block.
 *
 * @example
 * result.concurrent?.plain.latency.n === size.rounds * OVERHEAD_CONCURRENCY * size.concurrentCallsPerWorker; // true
 */
export const OVERHEAD_CONCURRENCY = 32;

/**
 * The sizes every runtime's sample measures with (`--overhead`, `--quick` or not), one call at
 * a time: the same calls in Node, Deno, workerd and Chromium.
 *
 * @example
 * await measureRuntimeOverhead(host, RUNTIME_OVERHEAD_SIZES.quick, { cpu: { unavailable: 'a page has no CPU clock' }, version: navigator.userAgent });
 */
export const RUNTIME_OVERHEAD_SIZES = {
  quick: { warmupCalls: 30, rounds: 4, sequentialCalls: 25, concurrentCallsPerWorker: 0 },
  full: { warmupCalls: 300, rounds: 20, sequentialCalls: 100, concurrentCallsPerWorker: 0 },
} as const satisfies Record<'quick' | 'full', OverheadSize>;

/**
 * How the server answers a request: an event stream (the SDK server's default) or a JSON body.
 *
 * @example
 * await measureOverhead(host, size, { format: 'json' satisfies AnswerFormat });
 */
export type AnswerFormat = 'sse' | 'json';

/**
 * The CPU time the runtime can read, or why it cannot: `readMicros` is the user + system time
 * of this process (or isolate) so far, in microseconds.
 *
 * @example
 * const node: CpuClock = { source: 'process.cpuUsage()', readMicros: () => { const { user, system } = process.cpuUsage(); return user + system; } };
 * const page: CpuClock = { unavailable: 'a page has no CPU clock' };
 */
export type CpuClock =
  | { readonly source: string; readonly readMicros: () => number }
  | { readonly unavailable: string };

export interface OverheadResult {
  readonly sequential: OverheadComparison;
  /** Absent when the size asks for no concurrent blocks. */
  readonly concurrent?: OverheadComparison;
}

/**
 * What a runtime's sample prints for `--overhead`: both answer formats, on that runtime.
 *
 * @example
 * const overhead = JSON.parse(stdout) as RuntimeOverhead;
 * overhead.sse.sequential.medianRatio; // ≈ 1.1
 */
export interface RuntimeOverhead {
  readonly runtime: RuntimeName;
  /** The runtime's version, as the sample knows it (`Node v20.20.2`, `Deno 2.9.6`, …). */
  readonly version: string;
  /** The clock the latencies are read on, and what it can tell (`performance.now()`, or how it is coarser). */
  readonly clock: string;
  readonly size: OverheadSize;
  /** Where the CPU figures come from, or why there are none. */
  readonly cpu: { readonly source: string } | { readonly unavailable: string };
  readonly sse: OverheadResult;
  readonly json: OverheadResult;
}

export interface MeasureOverheadOptions {
  readonly format: AnswerFormat;
  /** User + system CPU microseconds so far; without it, no CPU figures. */
  readonly readCpuMicros?: () => number;
  /** The clock, in milliseconds. Default `performance.now()`. */
  readonly now?: () => number;
  /**
   * Each call's answer carries this many `notifications/progress` before its result (the chaos
   * server's `slow` tool, asked for no wait, with a progress token): an SSE stream of several
   * messages, what a slow tool sends, instead of `echo`'s one. Default 0: `echo`.
   */
  readonly progressNotifications?: number;
}

interface Subject {
  readonly name: 'plain' | 'resilient';
  readonly client: ScenarioClient;
}

async function call(subject: Subject, text: string, progressNotifications: number): Promise<void> {
  const tool = progressNotifications > 0 ? 'slow' : 'echo';
  try {
    if (tool === 'echo') await subject.client.callTool({ name: tool, arguments: { text } }, undefined, { timeout: SDK_TIMEOUT_MS });
    else {
      let seen = 0;
      await subject.client.callTool({ name: tool, arguments: { ms: 0, steps: progressNotifications } }, undefined, { timeout: SDK_TIMEOUT_MS, onprogress: () => (seen += 1) });
      if (seen !== progressNotifications) throw new Error(`${seen} progress notifications, not ${progressNotifications}`);
    }
  } catch (error) {
    throw new ScenarioError('OVERHEAD_CALL_FAILED', `the ${subject.name} client's ${tool} call failed: ${(error as Error).message}`, { cause: error });
  }
}

async function block(subject: Subject, workers: number, callsPerWorker: number, into: OverheadSample, options: MeasureOverheadOptions): Promise<void> {
  const now = options.now ?? (() => performance.now());
  const cpuBefore = options.readCpuMicros?.() ?? 0;
  const blockStart = now();
  await Promise.all(Array.from({ length: workers }, async (_, worker) => {
    for (let i = 0; i < callsPerWorker; i++) {
      const start = now();
      await call(subject, `w${worker}-${i}`, options.progressNotifications ?? 0);
      into.latencies.push(now() - start);
    }
  }));
  into.blockMs += now() - blockStart;
  if (options.readCpuMicros) into.cpuMicros += options.readCpuMicros() - cpuBefore;
}

type Samples = Record<Subject['name'], OverheadSample>;
const emptySamples = (): Samples => ({ plain: emptySample(), resilient: emptySample() });

/** Adds one round's block to the client's whole sample. */
function merge(into: OverheadSample, block: OverheadSample): void {
  into.latencies.push(...block.latencies);
  into.blockMs += block.blockMs;
  into.cpuMicros += block.cpuMicros;
}

/**
 * What the engine costs on the host's runtime: on one healthy server of the chaos pool
 * answering in `format`, the plain SDK client (the runtime's own `fetch`) against the same
 * client given the host's resilient fetch, `echo` calls in blocks that alternate between the
 * two (ABBA), so drift on a noisy machine falls on both alike. Latency on `now`, and CPU time
 * per call when the runtime can read it, and the time of whole blocks per call (the figure
 * a coarse clock leaves intact), each ratio also round by round, spread over the rounds. With
 * `progressNotifications`, each answer is a stream of that many progress notifications and then
 * the result (SSE answers only). A failed call is a {@link ScenarioError}
 * `OVERHEAD_CALL_FAILED`: a healthy server answers every call. The clients and the server are
 * stopped whatever happens.
 *
 * @example
 * const { sequential } = await measureOverhead(host, RUNTIME_OVERHEAD_SIZES.quick, { format: 'json' });
 * sequential.medianRatio; // ≈ 1.1
 */
export async function measureOverhead(host: ScenarioHost, size: OverheadSize, options: MeasureOverheadOptions): Promise<OverheadResult> {
  if ((options.progressNotifications ?? 0) > 0 && options.format === 'json') {
    throw new RangeError('progress notifications need SSE answers: a JSON body holds the result alone');
  }
  const chaos = await host.chaos.start(options.format === 'json' ? { jsonResponses: true } : {});
  const clients: ScenarioClient[] = [];
  const connected = async (name: Subject['name'], transportOptions: { fetch?: typeof fetch }): Promise<Subject> => {
    const client = newClient(host.sdk);
    clients.push(client);
    await client.connect(new host.sdk.StreamableHTTPClientTransport(new URL(chaos.url), transportOptions), { timeout: SDK_TIMEOUT_MS });
    return { name, client };
  };
  try {
    const plain = await connected('plain', {});
    const resilient = await connected('resilient', { fetch: host.createFetch({ onEvent: () => {} }) });
    const withCpu = options.readCpuMicros !== undefined;
    const sequential = { all: emptySamples(), rounds: [] as Samples[] };
    const concurrent = { all: emptySamples(), rounds: [] as Samples[] };
    for (const subject of [plain, resilient]) await block(subject, 1, size.warmupCalls, emptySample(), options);
    const blocks = async (order: Subject[], into: typeof sequential, workers: number, callsPerWorker: number) => {
      const round = emptySamples();
      for (const subject of order) await block(subject, workers, callsPerWorker, round[subject.name], options);
      for (const subject of order) merge(into.all[subject.name], round[subject.name]);
      into.rounds.push(round);
    };
    for (let round = 0; round < size.rounds; round++) {
      const order = round % 2 === 0 ? [plain, resilient] : [resilient, plain];
      await blocks(order, sequential, 1, size.sequentialCalls);
      if (size.concurrentCallsPerWorker === 0) continue;
      await blocks(order, concurrent, OVERHEAD_CONCURRENCY, size.concurrentCallsPerWorker);
    }
    const result = (x: typeof sequential) => compare(x.all.plain, x.all.resilient, x.rounds, withCpu);
    return { sequential: result(sequential), ...(size.concurrentCallsPerWorker === 0 ? {} : { concurrent: result(concurrent) }) };
  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await chaos.stop();
  }
}

/**
 * {@link measureOverhead} on SSE answers, then on JSON answers, as a runtime's sample prints
 * it (`--overhead`): what `pnpm bench:runtimes` gathers from each runtime into one table.
 *
 * @example
 * import process from 'node:process';
 * const cpu = { source: 'process.cpuUsage()', readMicros: () => { const { user, system } = process.cpuUsage(); return user + system; } };
 * console.log(JSON.stringify(await measureRuntimeOverhead(host, RUNTIME_OVERHEAD_SIZES.full, { cpu, version: process.version })));
 */
export async function measureRuntimeOverhead(
  host: ScenarioHost, size: OverheadSize, { cpu, version, clock = 'performance.now()' }: { readonly cpu: CpuClock; readonly version: string; readonly clock?: string },
): Promise<RuntimeOverhead> {
  const readCpuMicros = 'readMicros' in cpu ? cpu.readMicros : undefined;
  const measure = (format: AnswerFormat) => measureOverhead(host, size, { format, ...(readCpuMicros ? { readCpuMicros } : {}) });
  const sse = await measure('sse');
  const json = await measure('json');
  return { runtime: host.runtime, version, clock, size, cpu: 'readMicros' in cpu ? { source: cpu.source } : { unavailable: cpu.unavailable }, sse, json };
}
