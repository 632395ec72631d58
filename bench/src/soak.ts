import { AsyncLocalStorage } from 'node:async_hooks';
import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/client';
import { nodeSleep } from '@mcp-resilience/node';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectSoakClient, SOAK_ENGINE, TrafficRecorder } from './soak-client.ts';
import { Conductor } from './soak-conductor.ts';
import { driveClient, type CallPool } from './soak-driver.ts';
import { createRng, deriveSeed } from './soak-random.ts';
import { buildSchedule, DEFAULT_KILL_SPACING_MS, scheduleEndMs } from './soak-schedule.ts';
import { failuresOf, type SoakReport } from './soak-report.ts';
import { buildTimeline, countBy } from './soak-timeline.ts';
import { callSucceeded, goalsOf, judgeCalls, type CallRecord } from './soak-verdict.ts';
import { WireSampler } from './soak-wire.ts';

export type { SoakReport } from './soak-report.ts';

/** How to run a soak; only `calls` is needed. */
export interface SoakOptions {
  /** Tool calls to make in all. */
  readonly calls: number;
  /** Seeds the fault schedule, the workload and the engines' jitter (default 20261205). */
  readonly seed?: number;
  /** Busy SDK clients, each with its own engine and session (default 4); even-numbered ones keep a standalone GET stream. */
  readonly clients?: number;
  /** Quiet SDK clients (default 2): one call now and then, so that their sessions go idle (and get expired or evicted). */
  readonly sleepers?: number;
  /** Each client makes 1 to this many calls at once (default 3). */
  readonly maxBatch?: number;
  /** Width of a timeline slice (default 250 ms). */
  readonly bucketMs?: number;
  /** No new call is made after this long (default: three times the planned length, at least 60 s): the soak always ends. */
  readonly deadlineMs?: number;
  /** A call not settled after this long has hung (default 20 s). */
  readonly watchdogMs?: number;
  /** Rounds of the fault schedule, each with every kind of fault (default: one per 2,500 calls). */
  readonly rounds?: number;
  /** The least time between two steps that end sessions (default 3 s): more than a call lives, or a quiet client sleeps. */
  readonly killSpacingMs?: number;
  /** Told after each settled call. */
  readonly onProgress?: (completed: number, total: number) => void;
}

/**
 * The seed of `pnpm soak` when none is given.
 *
 * @example
 * await runSoak({ calls: 1_500, seed: DEFAULT_SEED });
 */
export const DEFAULT_SEED = 20261205;

/** Resolves when `promise` does or after `ms`, whichever is first: teardown never waits forever. */
const within = (promise: Promise<unknown>, ms: number) => Promise.race([promise.catch(() => {}), nodeSleep(ms)]);

/**
 * The chaos soak: starts a chaos server on 127.0.0.1 in this process, connects official SDK
 * 1.x clients through the engine (`clients` busy ones, `sleepers` quiet ones), and makes
 * `calls` tool calls (echo, add, record, slow) while a seeded schedule of faults plays over
 * time (evictions, restarts with and without down time, refusals, idle expiry, capacity
 * eviction, 429/5xx, dropped streams with and without event ids, every "session gone"
 * dialect). The calls are paced to span the schedule, so that every step lands among them.
 * Bounded: no call after the deadline, and a call not settled within the watchdog has hung.
 * Returns the figures against the goals; stops every client and the server.
 *
 * @example
 * const report = await runSoak({ calls: 1_500, seed: 7 });
 * if (!report.passed) console.log(report.goals.filter((g) => !g.met));
 */
export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const seed = options.seed ?? DEFAULT_SEED;
  const clientCount = options.clients ?? 4;
  const sleepers = options.sleepers ?? 2;
  const maxBatch = options.maxBatch ?? 3;
  const watchdogMs = options.watchdogMs ?? 20_000;
  const bucketMs = options.bucketMs ?? 250;
  const killSpacingMs = options.killSpacingMs ?? DEFAULT_KILL_SPACING_MS;
  const steps = buildSchedule({
    seed, calls: options.calls, clients: clientCount + sleepers, killSpacingMs, ...(options.rounds === undefined ? {} : { rounds: options.rounds }),
  });
  const plannedMs = Math.round(scheduleEndMs(steps) * 1.05 + 1_000);
  const callsPerSecond = (options.calls * 1000) / plannedMs;
  const deadlineMs = options.deadlineMs ?? Math.max(60_000, 3 * plannedMs);

  const chaos: ChaosServer = await startChaosServer();
  const labels = new AsyncLocalStorage<string>();
  const traffic = new TrafficRecorder();
  const events: Record<string, number> = {};
  const gaveUp: Record<string, number> = {};
  const reinitAt: number[] = [];
  let t0 = performance.now();
  const clock = () => Math.round(performance.now() - t0);
  const onEvent = (event: ResilienceEvent) => {
    events[event.type] = (events[event.type] ?? 0) + 1;
    if (event.type === 'gave-up') gaveUp[event.code] = (gaveUp[event.code] ?? 0) + 1;
    if (event.type === 'session-reinitialized') reinitAt.push(clock());
  };
  const clients: Client[] = [];
  const wire = new WireSampler(chaos);
  const sampler = setInterval(() => wire.sample(), 200);
  // Per client: the start of the latest call it has completed (to tell when all got over a loss).
  const latestStart = Array.from({ length: clientCount + sleepers }, () => Number.NEGATIVE_INFINITY);
  const conductor = new Conductor(chaos, steps, { clock, killSpacingMs, recovered: (since) => latestStart.every((t) => t >= since) });
  const records: CallRecord[] = [];
  const pool: CallPool = { total: options.calls, next: 0, closed: false };
  let deadline: ReturnType<typeof setTimeout> | undefined;
  try {
    for (let i = 0; i < clientCount + sleepers; i++) {
      const random = createRng(deriveSeed(seed, 'jitter', i)).next;
      const standaloneStream = i < clientCount && i % 2 === 0;
      clients.push(await connectSoakClient({ url: chaos.url, standaloneStream, random, labels, traffic, onEvent }));
    }
    t0 = performance.now();
    deadline = setTimeout(() => ((pool.closed = true), conductor.stop()), deadlineMs);
    const playing = conductor.play();
    const onSettled = (record: CallRecord) => {
      records.push(record);
      latestStart[record.client] = Math.max(latestStart[record.client]!, record.startMs);
      options.onProgress?.(records.length, options.calls);
    };
    await Promise.all(clients.map((client, i) => driveClient(client, i, pool, {
      seed, clock, labels, watchdogMs, onSettled, lagMs: () => conductor.lagMs(),
      role: i < clientCount ? { kind: 'busy', maxBatch, callsPerSecond: callsPerSecond / clientCount } : { kind: 'quiet' },
    })));
    const wallMs = clock();
    conductor.stop();
    await within(playing, 5_000);
    wire.sample();
    const ledger = chaos.state().ledger;
    const figures = judgeCalls(records, ledger, traffic);
    const byKind = countBy(conductor.applied, (s) => s.kind);
    const goals = goalsOf(figures, options.calls);
    return {
      seed, requestedCalls: options.calls,
      settings: {
        clients: clientCount, sleepers, maxBatch, watchdogMs, deadlineMs, killSpacingMs, engine: SOAK_ENGINE,
        plannedMs, plannedCallsPerSecond: Math.round(callsPerSecond),
      },
      wallMs, callsPerSecond: Math.round((records.length / Math.max(wallMs, 1)) * 1000), deadlineReached: pool.closed,
      ...figures,
      reinitializations: events['session-reinitialized'] ?? 0, sessionsStarted: events['session-started'] ?? 0, events, gaveUp,
      faults: {
        scheduled: steps.length, applied: conductor.applied.length, byKind,
        kindsNotApplied: [...new Set(steps.map((s) => s.kind))].filter((k) => !(k in byKind)),
        applyErrors: conductor.applied.filter((s) => s.error !== undefined).length, wire: wire.summary(),
      },
      goals, passed: goals.every((g) => g.met),
      failures: failuresOf(records, ledger, traffic),
      schedule: conductor.applied,
      timeline: {
        bucketMs,
        buckets: buildTimeline({
          calls: records.map((r) => ({ endMs: r.endMs, failed: !callSucceeded(r, ledger) })),
          faults: conductor.applied, reinitializations: reinitAt,
        }, bucketMs, wallMs),
      },
    };
  } finally {
    clearTimeout(deadline);
    clearInterval(sampler);
    conductor.stop();
    await within(Promise.all(clients.map((c) => c.close())), 5_000);
    await within(chaos.stop(), 5_000);
  }
}
