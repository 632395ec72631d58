import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startChaosProcess } from './chaos-process.ts';
import { connectClient, echo } from './sdk-clients.ts';
import { ratio, summarize, type Summary } from './stats.ts';

/** How many calls the overhead benchmark makes. */
export interface OverheadSize {
  readonly warmupCalls: number;
  /** Rounds; each runs one block per client, their order alternating round by round. */
  readonly rounds: number;
  /** Calls per block, one after another. */
  readonly sequentialCalls: number;
  /** Calls per concurrent worker per block; 32 workers. */
  readonly concurrentCallsPerWorker: number;
}

export const CONCURRENCY = 32;

export interface OverheadSide {
  readonly latency: Summary;
  /** CPU time (user + system) of this process per call, in microseconds. */
  readonly cpuMicrosPerCall: number;
}

export interface OverheadComparison {
  readonly plain: OverheadSide;
  readonly resilient: OverheadSide;
  readonly medianRatio: number;
  readonly p99Ratio: number;
  readonly cpuRatio: number;
}

export interface OverheadResult {
  readonly sequential: OverheadComparison;
  readonly concurrent: OverheadComparison;
}

interface Sample {
  readonly latencies: number[];
  cpuMicros: number;
}

async function block(client: Client, workers: number, callsPerWorker: number, into: Sample): Promise<void> {
  const cpu = process.cpuUsage();
  await Promise.all(Array.from({ length: workers }, async (_, w) => {
    for (let i = 0; i < callsPerWorker; i++) {
      const start = performance.now();
      await echo(client, `w${w}-${i}`);
      into.latencies.push(performance.now() - start);
    }
  }));
  const used = process.cpuUsage(cpu);
  into.cpuMicros += used.user + used.system;
}

function side(sample: Sample): OverheadSide {
  return { latency: summarize(sample.latencies), cpuMicrosPerCall: Math.round(sample.cpuMicros / sample.latencies.length) };
}

function compare(plain: Sample, resilient: Sample): OverheadComparison {
  const p = side(plain);
  const r = side(resilient);
  return {
    plain: p, resilient: r,
    medianRatio: ratio(r.latency.medianMs, p.latency.medianMs),
    p99Ratio: ratio(r.latency.p99Ms, p.latency.p99Ms),
    cpuRatio: ratio(r.cpuMicrosPerCall, p.cpuMicrosPerCall),
  };
}

/** How the server answers a request: an event stream (the SDK server's default) or a JSON body. */
export type AnswerFormat = 'sse' | 'json';

/**
 * The plain SDK client against the same client given `createResilientFetch()`, on one healthy
 * chaos server (in its own process, so its work is not counted) answering in `format`: latency
 * and this process's CPU time per call, one call at a time and 32 at a time. Blocks alternate
 * between the two clients (ABBA), so drift on a noisy machine falls on both alike.
 *
 * @example
 * const { sequential } = await measureOverhead({ warmupCalls: 50, rounds: 10, sequentialCalls: 30, concurrentCallsPerWorker: 3 }, 'sse');
 * sequential.medianRatio; // ≈ 1
 */
export async function measureOverhead(size: OverheadSize, format: AnswerFormat): Promise<OverheadResult> {
  const chaos = await startChaosProcess(format === 'json' ? ['--json-responses'] : []);
  const clients: Client[] = [];
  try {
    const plain = await connectClient(chaos.url);
    clients.push(plain);
    const resilient = await connectClient(chaos.url, {});
    clients.push(resilient);
    const samples = {
      sequential: new Map<Client, Sample>([[plain, { latencies: [], cpuMicros: 0 }], [resilient, { latencies: [], cpuMicros: 0 }]]),
      concurrent: new Map<Client, Sample>([[plain, { latencies: [], cpuMicros: 0 }], [resilient, { latencies: [], cpuMicros: 0 }]]),
    };
    const warmup: Sample = { latencies: [], cpuMicros: 0 };
    for (const client of [plain, resilient]) await block(client, 1, size.warmupCalls, warmup);
    for (let round = 0; round < size.rounds; round++) {
      const order = round % 2 === 0 ? [plain, resilient] : [resilient, plain];
      for (const client of order) await block(client, 1, size.sequentialCalls, samples.sequential.get(client)!);
      for (const client of order) await block(client, CONCURRENCY, size.concurrentCallsPerWorker, samples.concurrent.get(client)!);
    }
    return {
      sequential: compare(samples.sequential.get(plain)!, samples.sequential.get(resilient)!),
      concurrent: compare(samples.concurrent.get(plain)!, samples.concurrent.get(resilient)!),
    };
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await chaos.stop();
  }
}
