import { describe, expect, it } from 'vitest';
import type { ChaosControl } from './chaos-control.ts';
import { isScenarioError } from './errors.ts';
import type { ScenarioHost } from './host.ts';
import { measureOverhead, measureRuntimeOverhead, OVERHEAD_CONCURRENCY, type OverheadSize } from './measure-overhead.ts';
import type { ScenarioChaosOptions } from './scenario.ts';
import { chaosProcessForTests, hostFor } from './test-support/host.ts';

const chaos = chaosProcessForTests();
const SMALL: OverheadSize = { warmupCalls: 3, rounds: 2, sequentialCalls: 5, concurrentCallsPerWorker: 0 };
const poolIsEmpty = async () => expect(((await (await fetch(`${chaos().control}/servers`)).json()) as { servers: unknown[] }).servers).toEqual([]);

/** The test host, with every server option it is asked for recorded (and `faults` added to each). */
function recordingHost(faults: ScenarioChaosOptions['faults'] = []): { host: ScenarioHost; asked: ScenarioChaosOptions[]; engineRequests: string[] } {
  const host = hostFor(chaos().control);
  const asked: ScenarioChaosOptions[] = [];
  const engineRequests: string[] = [];
  const pool: ChaosControl = { start: (options) => (asked.push(options), host.chaos.start({ ...options, faults })) };
  const createFetch: ScenarioHost['createFetch'] = (options) => {
    const engine = host.createFetch(options);
    return (input, init) => (engineRequests.push(init?.method ?? 'GET'), engine(input, init));
  };
  return { host: { ...host, chaos: pool, createFetch }, asked, engineRequests };
}

describe('measureOverhead, against an mcp-chaos pool', () => {
  it('makes exactly the calls asked on each client, the resilient one through the host\'s fetch, and stops its server', async () => {
    const { host, asked, engineRequests } = recordingHost();
    let clock = 0;
    const result = await measureOverhead(host, SMALL, { format: 'sse', now: () => (clock += 1) });
    expect(asked).toEqual([{}]);
    // Each reading one tick later: a call takes 1, a block of 5 calls 2 × 5 + 1.
    expect(result.sequential.plain).toEqual({ latency: { n: 10, medianMs: 1, p99Ms: 1 }, blockMsPerCall: 2.2 });
    expect(result.sequential).toMatchObject({ medianRatio: 1, p99Ratio: 1, blockRatio: 1 });
    expect(result.sequential.plain.latency.n).toBe(10);
    expect(result.sequential.resilient.latency.n).toBe(10);
    expect(result.concurrent).toBeUndefined();
    // initialize, notifications/initialized, the standalone GET, 13 calls, the DELETE of close()
    expect(engineRequests.filter((m) => m === 'POST')).toHaveLength(2 + 13);
    expect(result.sequential).not.toHaveProperty('cpuRatio');
    expect(result.sequential.plain).not.toHaveProperty('cpuMicrosPerCall');
    await poolIsEmpty();
  });

  it('asks the pool for a server answering with JSON bodies, and reads the CPU clock around each block', async () => {
    const { host, asked } = recordingHost();
    let micros = 0;
    const readCpuMicros = () => (micros += 100); // 100 µs between two readings: one block
    const result = await measureOverhead(host, { ...SMALL, concurrentCallsPerWorker: 1 }, { format: 'json', readCpuMicros });
    expect(asked).toEqual([{ jsonResponses: true }]);
    expect(result.concurrent?.plain.latency.n).toBe(2 * OVERHEAD_CONCURRENCY);
    expect(result.sequential.plain.cpuMicrosPerCall).toBe(20); // 2 blocks × 100 µs / 10 calls
    expect(result.concurrent?.resilient.cpuMicrosPerCall).toBe(Math.round(200 / 64));
    expect(result.sequential.cpuRatio).toBe(1);
    await poolIsEmpty();
  });

  it('spreads each ratio over the rounds, a round being one block of each client', async () => {
    const { host } = recordingHost();
    let micros = 0;
    const result = await measureOverhead(host, { ...SMALL, rounds: 3, concurrentCallsPerWorker: 1 }, { format: 'sse', readCpuMicros: () => (micros += 100) });
    for (const c of [result.sequential, result.concurrent!]) {
      expect(Object.keys(c.spread).sort()).toEqual(['addedCpuMicros', 'blockRatio', 'cpuRatio', 'medianRatio', 'p99Ratio']);
      for (const s of Object.values(c.spread)) expect(s.rounds).toBe(3);
    }
    expect(result.sequential.spread.cpuRatio).toEqual({ rounds: 3, median: 1, q1: 1, q3: 1, min: 1, max: 1 }); // 100 µs a block each
    expect(result.sequential.spread.addedCpuMicros?.median).toBe(0);
    await poolIsEmpty();
  });

  it('with progressNotifications, answers each call with that many progress notifications and then its result', async () => {
    const { host, engineRequests } = recordingHost();
    const result = await measureOverhead(host, SMALL, { format: 'sse', progressNotifications: 3 });
    expect(result.sequential.resilient.latency.n).toBe(10);
    expect(engineRequests.filter((m) => m === 'POST')).toHaveLength(2 + 13);
    await expect(measureOverhead(host, SMALL, { format: 'json', progressNotifications: 3 })).rejects.toThrow(RangeError);
    await poolIsEmpty();
  });

  it('fails with OVERHEAD_CALL_FAILED when a call fails, naming the client, and stops its server', async () => {
    const { host } = recordingHost([{ kind: 'status', status: 400, count: 1, rpcMethod: 'tools/call' }]);
    const failure = await measureOverhead(host, SMALL, { format: 'sse' }).catch((error: unknown) => error);
    expect(isScenarioError(failure, 'OVERHEAD_CALL_FAILED')).toBe(true);
    expect((failure as Error).message).toMatch(/^the plain client's echo call failed: /);
    await poolIsEmpty();
  });
});

describe('measureRuntimeOverhead', () => {
  it('measures SSE then JSON answers, and says where its CPU figures come from or why there are none', async () => {
    const { host, asked } = recordingHost();
    const without = await measureRuntimeOverhead(host, SMALL, { cpu: { unavailable: 'no CPU clock here' }, version: 'v0' });
    expect(asked).toEqual([{}, { jsonResponses: true }]);
    expect(without).toMatchObject({ runtime: 'node', version: 'v0', clock: 'performance.now()', size: SMALL, cpu: { unavailable: 'no CPU clock here' } });
    expect([without.sse.sequential.plain.latency.n, without.json.sequential.resilient.latency.n]).toEqual([10, 10]);
    let micros = 0;
    const withCpu = await measureRuntimeOverhead(host, SMALL, { cpu: { source: 'a counter', readMicros: () => (micros += 50) }, version: 'v0' });
    expect(withCpu.cpu).toEqual({ source: 'a counter' });
    expect(withCpu.json.sequential.plain.cpuMicrosPerCall).toBe(10); // 2 blocks × 50 µs / 10 calls
  });
});
