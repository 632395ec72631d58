import { DIALECT_NAMES, startChaosServer, type ChaosState, type Fault } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fc from 'fast-check';
import { createResilientFetch } from '../resilient-fetch.ts';

/*
 * Random fault schedules for the property tests: what a schedule is, how fast-check draws one,
 * and how one is run against a fresh chaos server by the official SDK 1.x client through the
 * engine, recording what the client and the server saw.
 */

export type Tool = 'echo' | 'add' | 'record' | 'slow';
/** Calls made concurrently; `during`: a fault applied `afterMs` after they start (while they run). */
export interface CallsStep {
  readonly type: 'calls';
  readonly tools: readonly Tool[];
  readonly during?: { readonly fault: Fault; readonly afterMs: number };
}
export interface FaultStep { readonly type: 'fault'; readonly fault: Fault }
export type Step = CallsStep | FaultStep;

/** Small backoff so that a run takes milliseconds. */
export const BACKOFF = { initialMs: 5, maxMs: 20, maxAttempts: 4, maxTotalDelayMs: 2_000 } as const;
export const RETRY_AFTER_CAP_MS = 2_000;
export const TRUST = { readOnlyTools: ['echo', 'slow'], idempotentTools: ['add'] } as const;
/**
 * The watchdog of a call, a hang guard: a call that has not settled by then has hung. A call takes
 * milliseconds on a quiet machine (0.3 s for 99 in 100, 0.8 s at most even under load; its
 * backoff may add up to `BACKOFF.maxTotalDelayMs`): this is more than 10× the longest. The SDK's
 * own timeout (its default, 60 s) is longer still, so that the watchdog is what ends a hung call.
 */
export const SETTLE_WITHIN_MS = 30_000;
/** Where a call's label travels in its request (`params._meta`), to map wire ids back to calls. */
const LABEL = 'test/label';

export const faultArb: fc.Arbitrary<Fault> = fc.oneof(
  fc.constantFrom('all' as const, 'newest' as const).map((session): Fault => ({ kind: 'evict', session })),
  fc.constant<Fault>({ kind: 'restart' }),
  fc.record({ status: fc.constantFrom(429, 503), count: fc.integer({ min: 1, max: 2 }) })
    .map(({ status, count }): Fault => ({ kind: 'status', status, count, retryAfter: '0' })),
  fc.constantFrom(500, 502, 503, 504).map((status): Fault => ({ kind: 'status', status, count: 1 })),
  // A gateway's 503 after the request ran: an unknown outcome, never "not processed".
  fc.constant<Fault>({ kind: 'status', status: 503, count: 1, afterRun: true, contentType: 'text/html', body: '<html>503</html>' }),
  fc.record({ eventIds: fc.boolean(), afterEvents: fc.integer({ min: 0, max: 1 }) })
    .map(({ eventIds, afterEvents }): Fault => ({ kind: 'drop-stream', eventIds, afterEvents })),
  fc.constantFrom(...DIALECT_NAMES).map((name): Fault => ({ kind: 'dialect', name })),
  fc.integer({ min: 1, max: 3 }).map((max): Fault => ({ kind: 'capacity', max })),
  fc.integer({ min: 20, max: 200 }).map((ms): Fault => ({ kind: 'idle-budget', ms })),
);

const toolsArb = fc.array(fc.constantFrom<Tool>('echo', 'add', 'record', 'slow'), { minLength: 1, maxLength: 4 });

/** A schedule of 3–12 steps ending with calls; with `midCall`, faults may also land while calls run. */
export function scheduleArb(midCall: boolean): fc.Arbitrary<Step[]> {
  const during = midCall
    ? fc.option(fc.record({ fault: faultArb, afterMs: fc.integer({ min: 0, max: 15 }) }), { freq: 2, nil: undefined })
    : fc.constant(undefined);
  const calls: fc.Arbitrary<Step> = fc.record({ tools: toolsArb, during })
    .map(({ tools, during: d }): Step => ({ type: 'calls', tools, ...(d === undefined ? {} : { during: d }) }));
  const fault: fc.Arbitrary<Step> = faultArb.map((f): Step => ({ type: 'fault', fault: f }));
  return fc.tuple(fc.array(fc.oneof(fault, calls), { minLength: 2, maxLength: 11 }), calls).map(([steps, last]) => [...steps, last]);
}

export interface CallOutcome {
  readonly label: string;
  readonly tool: Tool;
  /** The arguments it was called with. */
  readonly args: Readonly<Record<string, unknown>>;
  readonly settled: 'fulfilled' | 'rejected' | 'hung';
  readonly value?: unknown;
  readonly error?: unknown;
}

/** What the client process did, in its own order: requests as the engine sent them, and its events. */
export type Moment =
  | { readonly kind: 'send'; readonly sessionId?: string; readonly httpMethod: string; readonly rpcMethod?: string; readonly rpcId?: unknown }
  | { readonly kind: 'initialized'; readonly sessionId?: string }
  | { readonly kind: 'event'; readonly event: ResilienceEvent };

export interface RunResult {
  readonly calls: readonly CallOutcome[];
  /** The client side's timeline (sends stamped synchronously before dispatch, so in stamping order). */
  readonly timeline: readonly Moment[];
  readonly events: readonly ResilienceEvent[];
  readonly state: ChaosState;
  /** Every JSON-RPC id the engine put on the wire for a tool call (as a string) → that call's label. */
  readonly labels: ReadonlyMap<string, string>;
}

function argsOf(tool: Tool, label: string, n: number): Record<string, unknown> {
  switch (tool) {
    case 'echo': return { text: label };
    case 'add': return { a: n, b: 2 * n };
    case 'record': return { key: label };
    case 'slow': return { ms: 20, steps: 2 };
  }
}

async function invoke(client: Client, tool: Tool, label: string, n: number, settleWithinMs: number): Promise<CallOutcome> {
  const args = argsOf(tool, label, n);
  const call = client.callTool(
    { name: tool, arguments: args, _meta: { [LABEL]: label } }, undefined,
    tool === 'slow' ? { onprogress: () => {} } : undefined,
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<CallOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ label, tool, args, settled: 'hung' }), settleWithinMs);
  });
  const settled = call.then(
    (value): CallOutcome => ({ label, tool, args, settled: 'fulfilled', value }),
    (error: unknown): CallOutcome => ({ label, tool, args, settled: 'rejected', error }),
  );
  try {
    return await Promise.race([settled, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts a chaos server, connects a fresh SDK 1.x client through the engine, runs the
 * schedule, and returns what happened: each call's outcome, the engine's events, and the
 * chaos server's state (ledger, wire log). Stops the client and the server whatever happens.
 * A call that hangs ends the schedule there: the run has failed already.
 */
export async function runSchedule(steps: readonly Step[], settleWithinMs = SETTLE_WITHIN_MS): Promise<RunResult> {
  const chaos = await startChaosServer();
  const events: ResilienceEvent[] = [];
  const timeline: Moment[] = [];
  const labels = new Map<string, string>();
  const recording: typeof fetch = (input, init) => {
    let message: { id?: unknown; method?: string; params?: { _meta?: Record<string, unknown> } } = {};
    if (typeof init?.body === 'string') {
      try {
        message = JSON.parse(init.body) as typeof message;
      } catch {
        // not JSON: not a tool call
      }
    }
    const label = message.params?._meta?.[LABEL];
    if (message.id !== undefined && typeof label === 'string') labels.set(String(message.id), label);
    const sessionId = new Headers(init?.headers).get('mcp-session-id') ?? undefined;
    timeline.push({
      kind: 'send', httpMethod: init?.method ?? 'GET', ...(sessionId === undefined ? {} : { sessionId }),
      ...(message.method === undefined ? {} : { rpcMethod: message.method }), ...(message.id === undefined ? {} : { rpcId: message.id }),
    });
    const response = fetch(input, init);
    if (message.method !== 'initialize') return response;
    return response.then((r) => {
      const id = r.headers.get('mcp-session-id') ?? undefined;
      timeline.push({ kind: 'initialized', ...(id === undefined ? {} : { sessionId: id }) });
      return r;
    });
  };
  const client = new Client({ name: 'fault-schedule', version: '0' });
  try {
    const fetch = createResilientFetch({
      fetch: recording, onEvent: (e) => (events.push(e), timeline.push({ kind: 'event', event: e })), backoff: BACKOFF, retryAfterCapMs: RETRY_AFTER_CAP_MS,
      tools: TRUST, random: () => 0.5,
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url), { fetch }));
    const calls: CallOutcome[] = [];
    let n = 0;
    for (const step of steps) {
      if (step.type === 'fault') {
        await chaos.applyFaults([step.fault]);
        continue;
      }
      const { during } = step;
      const midCall = during && new Promise((resolve) => setTimeout(resolve, during.afterMs)).then(() => chaos.applyFaults([during.fault]));
      calls.push(...(await Promise.all(step.tools.map((tool) => {
        n += 1;
        return invoke(client, tool, `c${n}-${tool}`, n, settleWithinMs);
      }))));
      await midCall;
      if (calls.some((c) => c.settled === 'hung')) break;
    }
    const state = chaos.state();
    return { calls, timeline: [...timeline], events: [...events], state: { ...state, log: state.log.map((e) => ({ ...e })) }, labels };
  } finally {
    await client.close().catch(() => {});
    await chaos.stop();
  }
}
