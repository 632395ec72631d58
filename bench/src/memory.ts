import { createHook } from 'node:async_hooks';
import { getEventListeners } from 'node:events';
import { nodeSleep } from '@mcp-resilience/node';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startChaosProcess } from './chaos-process.ts';
import { connectClient, echo } from './sdk-clients.ts';

/** `resilient`: a loss before every call; `plain`: the plain SDK client, the same calls, no loss (the baseline). */
export type MemorySubject = 'resilient' | 'plain';

export interface MemoryResult {
  readonly subject: MemorySubject;
  readonly calls: number;
  /** Session losses (evictions) and the re-initializations that followed. */
  readonly losses: number;
  readonly recoveries: number;
  readonly failedCalls: number;
  /** Heap used after full GCs, before the measured calls (after a warm-up) and after them. */
  readonly heapBeforeBytes: number;
  readonly heapAfterBytes: number;
  readonly heapGrowthBytes: number;
  /** Growth of memory held outside the JS heap in ArrayBuffers (bodies, buffers), after the same GCs. */
  readonly arrayBuffersGrowthBytes: number;
  /** Timers pending, ref'd or not (`AbortSignal.timeout` and unref'd waits included), after minus before (0: none leaked). */
  readonly timersLeaked: number;
  /** Abort listeners on the SDK transport's signal, after minus before. */
  readonly listenersLeaked: number;
  /** Process warnings by name (filled in by memory-main). */
  readonly warnings?: Readonly<Record<string, number>>;
}

/** Every pending timer, ref'd or not: `getActiveResourcesInfo` would miss unref'd ones. */
const pendingTimers = new Set<number>();
createHook({
  init: (id, type) => void (type === 'Timeout' && pendingTimers.add(id)),
  destroy: (id) => void pendingTimers.delete(id),
}).enable();
const timers = () => pendingTimers.size;

/**
 * Full GCs, with turns of the event loop between them so that finalizers run; then the heap,
 * and the fewest timers and abort listeners seen meanwhile (one that comes and goes is
 * transient; a leaked one stays).
 */
async function settle(client: Client): Promise<{ heap: number; arrayBuffers: number; timers: number; listeners: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run node with --expose-gc');
  let [fewestTimers, fewestListeners] = [Infinity, Infinity];
  // 5 × 250 ms: longer than the SDK's 1 s wait before it reopens a broken GET stream.
  for (let i = 0; i < 5; i++) {
    gc();
    await nodeSleep(250);
    fewestTimers = Math.min(fewestTimers, timers());
    fewestListeners = Math.min(fewestListeners, abortListeners(client));
  }
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return { heap: heapUsed, arrayBuffers, timers: fewestTimers, listeners: fewestListeners };
}

function abortListeners(client: Client): number {
  const signal = (client.transport as unknown as { _abortController?: AbortController } | undefined)?._abortController?.signal;
  return signal === undefined ? 0 : getEventListeners(signal, 'abort').length;
}

/**
 * `calls` calls in one process, each after a session loss (`resilient`: the chaos server, in
 * a process of its own, evicts the session and the call recovers it) or on a healthy session
 * (`plain`, the baseline: what the SDK and the runtime grow by anyway). Heap growth after
 * full GCs, timers and abort listeners left behind tell whether recoveries leak.
 * Needs `node --expose-gc`.
 *
 * @example
 * const { heapGrowthBytes, recoveries } = await measureMemory('resilient', 1_000, 500);
 */
export async function measureMemory(subject: MemorySubject, calls: number, warmup: number): Promise<MemoryResult> {
  const chaos = await startChaosProcess();
  let client: Client | undefined;
  let recoveries = 0;
  let failedCalls = 0;
  try {
    client = await connectClient(chaos.url, subject === 'plain' ? undefined : {
      tools: { readOnlyTools: ['echo'] },
      onEvent: (event) => void (event.type === 'session-reinitialized' && (recoveries += 1)),
    });
    const run = async (n: number) => {
      for (let i = 0; i < n; i++) {
        if (subject === 'resilient') await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
        await echo(client!, `call ${i}`).catch(() => (failedCalls += 1));
      }
    };
    await run(warmup);
    [recoveries, failedCalls] = [0, 0];
    const before = await settle(client);
    await run(calls);
    const after = await settle(client);
    return {
      subject, calls, losses: subject === 'resilient' ? calls : 0, recoveries, failedCalls,
      heapBeforeBytes: before.heap, heapAfterBytes: after.heap, heapGrowthBytes: after.heap - before.heap,
      arrayBuffersGrowthBytes: after.arrayBuffers - before.arrayBuffers,
      timersLeaked: after.timers - before.timers, listenersLeaked: after.listeners - before.listeners,
    };
  } finally {
    await client?.close().catch(() => {});
    await chaos.stop();
  }
}
