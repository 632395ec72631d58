import type { Fault, WireEntry } from '@mcp-resilience/chaos';
import { nodeSleep } from '@mcp-resilience/node';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startChaosProcess, type ChaosProcess } from './chaos-process.ts';
import { connectClient, echo, echoWithWorkaround, timed } from './sdk-clients.ts';
import { ratio, summarize, type Summary } from '@mcp-resilience/scenarios';

/** What the server saw between a session loss and the answer to the call that met it. */
export interface RecoveryPath {
  /** Every HTTP request, in order: `POST tools/call 404`, `POST initialize 200`, … */
  readonly sequence: readonly string[];
  readonly requests: number;
  /** POSTs: the engine sends them one after another, so each is a round trip on the call's path. */
  readonly roundTrips: number;
  /** Round trips that failed. Requests off the call's path (the SDK's GET, the engine's DELETE of a replaced session) are listed, not counted. */
  readonly failedRequests: number;
  readonly initializes: number;
}

export interface RecoveryVariant {
  /** The path of the first trial. */
  readonly path: RecoveryPath;
  /** How many different paths the trials took (1: every trial alike). */
  readonly distinctPaths: number;
  /** Latency of the call that met the loss. */
  readonly latency: Summary;
  /** … against a healthy call on the same client, measured just before. */
  readonly healthy: Summary;
  readonly latencyRatio: number;
  /** The raw latencies (ms), for the chart. */
  readonly latencies: readonly number[];
  readonly healthyLatencies: readonly number[];
}

export interface RecoveryResult {
  /** The engine finds the loss on the call (HTTP 404), re-initializes once and replays. */
  readonly reactive: RecoveryVariant;
  /** The engine's `idleBudgetMs` replaces the idle session before the call goes out. */
  readonly proactive: RecoveryVariant;
  /** The application's workaround: catch, build a new client, connect, call again. */
  readonly workaround: RecoveryVariant;
}

/** Many servers offer no standalone GET stream; without one, the call is the first to meet the loss. */
export const NO_GET_STREAM: Fault = { kind: 'status', status: 405, httpMethod: 'GET', count: 100_000 };
// The client's budget below the server's, as it is meant to be set; the wait between the two, with room to spare.
const SERVER_IDLE_MS = 2_000;
const CLIENT_IDLE_MS = 100;
const IDLE_WAIT_MS = 200;

/**
 * The wire path of one recovery: the requests the server logged, in order.
 *
 * @example
 * pathOf([{ seq: 1, atMs: 0, httpMethod: 'POST', rpcMethod: 'tools/call', status: 404 }]).failedRequests; // 1
 */
export function pathOf(entries: readonly WireEntry[]): RecoveryPath {
  return {
    sequence: entries.map((e) => [e.httpMethod, e.rpcMethod, e.status].filter((part) => part !== undefined).join(' ')),
    requests: entries.length,
    roundTrips: entries.filter((e) => e.httpMethod === 'POST').length,
    failedRequests: entries.filter((e) => e.httpMethod === 'POST' && (e.status ?? 0) >= 400).length,
    initializes: entries.filter((e) => e.rpcMethod === 'initialize').length,
  };
}


interface Trial {
  /** Faults in force for the trial (re-applied after each reset). */
  readonly faults: readonly Fault[];
  /** Ends the session: an eviction, or waiting out the idle budget. */
  readonly lose: (chaos: ChaosProcess) => Promise<void>;
  readonly call: (text: string) => Promise<void>;
  readonly client: () => Client;
}

/** The wire log once it has stopped growing (a request not waited for, such as a DELETE, may still be on its way). */
async function settledLog(chaos: ChaosProcess): Promise<readonly WireEntry[]> {
  let log = (await chaos.state()).log;
  for (;;) {
    await nodeSleep(50);
    const next = (await chaos.state()).log;
    if (next.length === log.length) return next;
    log = next;
  }
}

async function runTrials(chaos: ChaosProcess, trial: Trial, iterations: number): Promise<RecoveryVariant> {
  const latencies: number[] = [];
  const healthyLatencies: number[] = [];
  const paths = new Map<string, RecoveryPath>();
  for (let i = 0; i < iterations; i++) {
    await chaos.reset();
    await chaos.applyFaults(trial.faults);
    healthyLatencies.push(await timed(() => echo(trial.client(), `healthy ${i}`)));
    await trial.lose(chaos);
    const before = (await chaos.state()).log.length;
    latencies.push(await timed(() => trial.call(`after loss ${i}`)));
    const path = pathOf((await settledLog(chaos)).slice(before));
    paths.set([...path.sequence].sort().join(), path); // in any order: a request not waited for may arrive before or after
  }
  const latency = summarize(latencies);
  const healthy = summarize(healthyLatencies);
  const [path] = paths.values();
  return {
    path: path!, distinctPaths: paths.size, latency, healthy, latencyRatio: ratio(latency.medianMs, healthy.medianMs), latencies, healthyLatencies,
  };
}

/**
 * What one session loss costs: the requests and round trips from the loss to the answer (read
 * from the chaos server's wire log) and the latency of the call that met it, for the engine
 * finding the loss, the engine replacing an idle session first, and the application's
 * catch-and-reconnect workaround. The chaos server runs in its own process.
 *
 * @example
 * const { reactive } = await measureRecovery(20);
 * reactive.path.sequence; // ['POST tools/call 404', 'POST initialize 200', …]
 */
export async function measureRecovery(iterations: number): Promise<RecoveryResult> {
  const chaos = await startChaosProcess();
  const clients: Client[] = [];
  const evict = (c: ChaosProcess) => c.applyFaults([{ kind: 'evict', session: 'all' }]);
  try {
    await chaos.applyFaults([NO_GET_STREAM]);
    const resilient = await connectClient(chaos.url, { tools: { readOnlyTools: ['echo'] } });
    clients.push(resilient);
    const reactive = await runTrials(chaos, {
      faults: [NO_GET_STREAM], lose: evict, call: (text) => echo(resilient, text), client: () => resilient,
    }, iterations);

    const gets = async () => (await chaos.state()).log.filter((e) => e.httpMethod === 'GET').length;
    const getsBefore = await gets();
    const idle = await connectClient(chaos.url, { idleBudgetMs: CLIENT_IDLE_MS, tools: { readOnlyTools: ['echo'] } });
    clients.push(idle);
    // The SDK opens its standalone stream after connecting, without waiting: refused (405) before the
    // trials reset the faults, or it would be open, and a session holding a stream is never idle.
    for (let i = 0; i < 200 && (await gets()) === getsBefore; i++) await nodeSleep(10);
    const proactive = await runTrials(chaos, {
      faults: [NO_GET_STREAM, { kind: 'idle-budget', ms: SERVER_IDLE_MS }], lose: () => nodeSleep(IDLE_WAIT_MS),
      call: (text) => echo(idle, text), client: () => idle,
    }, Math.max(3, Math.ceil(iterations / 4)));

    const holder = { client: await connectClient(chaos.url) };
    const workaround = await runTrials(chaos, {
      faults: [NO_GET_STREAM], lose: evict, call: (text) => echoWithWorkaround(holder, chaos.url, text), client: () => holder.client,
    }, iterations);
    clients.push(holder.client);
    return { reactive, proactive, workaround };
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    await chaos.stop();
  }
}
