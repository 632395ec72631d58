import { SDK_TIMEOUT_MS } from './call-outcome.ts';
import { ScenarioError } from './errors.ts';
import type { ScenarioClient, ScenarioHost } from './host.ts';
import { ratio, summarize, type Summary } from './latency-stats.ts';
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

/** One client's calls: latency, and its CPU time per call when the runtime can read it. */
export interface OverheadSide {
  readonly latency: Summary;
  /**
   * The time its blocks took, over its calls: a mean that a coarse clock cannot round away
   * (workerd's advances only on I/O, in whole milliseconds).
   */
  readonly blockMsPerCall: number;
  readonly cpuMicrosPerCall?: number;
}

/** The plain SDK client against the resilient one; ratios are `resilient / plain`. */
export interface OverheadComparison {
  readonly plain: OverheadSide;
  readonly resilient: OverheadSide;
  readonly medianRatio: number;
  readonly p99Ratio: number;
  /** Of {@link OverheadSide.blockMsPerCall}. */
  readonly blockRatio: number;
  readonly cpuRatio?: number;
}

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
}

interface Sample {
  readonly latencies: number[];
  blockMs: number;
  cpuMicros: number;
}

interface Subject {
  readonly name: 'plain' | 'resilient';
  readonly client: ScenarioClient;
}

async function echo(subject: Subject, text: string): Promise<void> {
  try {
    await subject.client.callTool({ name: 'echo', arguments: { text } }, undefined, { timeout: SDK_TIMEOUT_MS });
  } catch (error) {
    throw new ScenarioError('OVERHEAD_CALL_FAILED', `the ${subject.name} client's echo call failed: ${(error as Error).message}`, { cause: error });
  }
}

async function block(subject: Subject, workers: number, callsPerWorker: number, into: Sample, options: MeasureOverheadOptions): Promise<void> {
  const now = options.now ?? (() => performance.now());
  const cpuBefore = options.readCpuMicros?.() ?? 0;
  const blockStart = now();
  await Promise.all(Array.from({ length: workers }, async (_, worker) => {
    for (let i = 0; i < callsPerWorker; i++) {
      const start = now();
      await echo(subject, `w${worker}-${i}`);
      into.latencies.push(now() - start);
    }
  }));
  into.blockMs += now() - blockStart;
  if (options.readCpuMicros) into.cpuMicros += options.readCpuMicros() - cpuBefore;
}

function side(sample: Sample, withCpu: boolean): OverheadSide {
  const latency = summarize(sample.latencies);
  const blockMsPerCall = Math.round((sample.blockMs / latency.n) * 1000) / 1000;
  return withCpu ? { latency, blockMsPerCall, cpuMicrosPerCall: Math.round(sample.cpuMicros / latency.n) } : { latency, blockMsPerCall };
}

function compare(plainSample: Sample, resilientSample: Sample, withCpu: boolean): OverheadComparison {
  const plain = side(plainSample, withCpu);
  const resilient = side(resilientSample, withCpu);
  return {
    plain, resilient,
    medianRatio: ratio(resilient.latency.medianMs, plain.latency.medianMs),
    p99Ratio: ratio(resilient.latency.p99Ms, plain.latency.p99Ms),
    blockRatio: ratio(resilient.blockMsPerCall, plain.blockMsPerCall),
    ...(withCpu ? { cpuRatio: ratio(resilient.cpuMicrosPerCall!, plain.cpuMicrosPerCall!) } : {}),
  };
}

const emptySample = (): Sample => ({ latencies: [], blockMs: 0, cpuMicros: 0 });
const emptySamples = (): Record<Subject['name'], Sample> => ({ plain: emptySample(), resilient: emptySample() });

/**
 * What the engine costs on the host's runtime: on one healthy server of the chaos pool
 * answering in `format`, the plain SDK client (the runtime's own `fetch`) against the same
 * client given the host's resilient fetch, `echo` calls in blocks that alternate between the
 * two (ABBA), so drift on a noisy machine falls on both alike. Latency on `now`, and CPU time
 * per call when the runtime can read it, and the time of whole blocks per call (the figure
 * a coarse clock leaves intact). A failed call is a {@link ScenarioError}
 * `OVERHEAD_CALL_FAILED`: a healthy server answers every call. The clients and the server are
 * stopped whatever happens.
 *
 * @example
 * const { sequential } = await measureOverhead(host, RUNTIME_OVERHEAD_SIZES.quick, { format: 'json' });
 * sequential.medianRatio; // ≈ 1.1
 */
export async function measureOverhead(host: ScenarioHost, size: OverheadSize, options: MeasureOverheadOptions): Promise<OverheadResult> {
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
    const sequential = emptySamples();
    const concurrent = emptySamples();
    for (const subject of [plain, resilient]) await block(subject, 1, size.warmupCalls, emptySample(), options);
    for (let round = 0; round < size.rounds; round++) {
      const order = round % 2 === 0 ? [plain, resilient] : [resilient, plain];
      for (const subject of order) await block(subject, 1, size.sequentialCalls, sequential[subject.name], options);
      if (size.concurrentCallsPerWorker === 0) continue;
      for (const subject of order) await block(subject, OVERHEAD_CONCURRENCY, size.concurrentCallsPerWorker, concurrent[subject.name], options);
    }
    return {
      sequential: compare(sequential.plain, sequential.resilient, withCpu),
      ...(size.concurrentCallsPerWorker === 0 ? {} : { concurrent: compare(concurrent.plain, concurrent.resilient, withCpu) }),
    };
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
