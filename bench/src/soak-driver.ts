import type { AsyncLocalStorage } from 'node:async_hooks';
import { nodeSleep } from '@mcp-resilience/node';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { invoke } from './soak-client.ts';
import { createRng, deriveSeed } from './soak-random.ts';
import type { CallRecord } from './soak-verdict.ts';
import { planCall } from './soak-workload.ts';

/** The calls of a soak, shared by its clients: each takes the next numbers until none is left or time is up. */
export interface CallPool {
  readonly total: number;
  next: number;
  /** Set when no new call may start (the soak's deadline). */
  closed: boolean;
}

export interface DriverOptions {
  readonly seed: number;
  readonly clock: () => number;
  readonly labels: AsyncLocalStorage<string>;
  readonly watchdogMs: number;
  /** Busy: batches of 1 to `maxBatch` calls at `callsPerSecond`; quiet: one call, then 1.5–2.5 s of sleep. */
  readonly role: { readonly kind: 'busy'; readonly maxBatch: number; readonly callsPerSecond: number } | { readonly kind: 'quiet' };
  readonly onSettled: (record: CallRecord) => void;
  /** How late the fault schedule runs: a busy client's pace follows it. */
  readonly lagMs: () => number;
}

/**
 * One client's part of the workload. A busy client makes batches of concurrent calls at its
 * pace, as late as the fault schedule runs (catching up at most 1 s when the server held it
 * back); a quiet client makes one call and sleeps 1.5–2.5 s, longer than an idle budget, so
 * that its session is the one idle expiry and capacity eviction take. Which call (tool,
 * arguments) a number stands for is drawn from the seed; which client makes it depends on timing.
 *
 * @example
 * await driveClient(client, 0, pool, { seed, clock, labels, watchdogMs: 20_000, role: { kind: 'quiet' }, onSettled, lagMs: () => 0 });
 */
export async function driveClient(client: Client, index: number, pool: CallPool, options: DriverOptions): Promise<void> {
  const { role, clock } = options;
  const rng = createRng(deriveSeed(options.seed, 'workload', index));
  let dueMs = clock();
  while (!pool.closed && pool.next < pool.total) {
    const size = role.kind === 'busy' ? Math.min(rng.int(1, role.maxBatch), pool.total - pool.next) : 1;
    const batch = Array.from({ length: size }, () => planCall(createRng(deriveSeed(options.seed, 'call', pool.next)), pool.next++));
    await Promise.all(batch.map(async (call) => {
      const startMs = clock();
      const outcome = await invoke(client, call, options.labels, options.watchdogMs);
      options.onSettled({ ...call, ...outcome, client: index, startMs, endMs: clock() });
    }));
    if (role.kind === 'quiet') {
      // In slices, so that the soak does not wait for a sleeper once the calls are done.
      for (let left = rng.int(1_500, 2_500); left > 0 && !pool.closed && pool.next < pool.total; left -= 100) await nodeSleep(Math.min(left, 100));
      continue;
    }
    dueMs = Math.max(dueMs + (size * 1000) / role.callsPerSecond, clock() - options.lagMs() - 1_000);
    await nodeSleep(Math.max(0, dueMs + options.lagMs() - clock()));
  }
}
