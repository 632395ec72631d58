import type { ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { createResilientFetch } from '../resilient-fetch.ts';
import type { Scenario, Tool } from './hostile-arbitraries.ts';
import { startHostileServer, type Received } from './hostile-server.ts';

/*
 * One hostile scenario, run by the official SDK 1.x client through the engine against a
 * fresh hostile server: what each call came to, what the client sent (in its own order) and
 * what the engine told, what the server received, and whether anything escaped the process's
 * promise and exception handling.
 *
 * No verdict here depends on how fast the machine is. A call whose request the server stalls is
 * ended by the test (an abort of its own, passed in the SDK's request options) as soon as the
 * server has stalled it, so nothing waits for a timeout to learn what the wire already says. The
 * wall-clock bounds that remain are hang guards only, far above any call's time on a quiet machine
 * (a few ms; 0.7 s at most, for answers of several MB): a call that reaches one has hung.
 */

/** The SDK's request timeout: a hang guard (no call may reach it: one that does has hung). */
export const SDK_TIMEOUT_MS = 30_000;
/** The watchdog above it: a call that has not settled by then has hung, and the SDK's own timeout did not end it either. */
export const SETTLE_WITHIN_MS = 40_000;
/** Backoff and `Retry-After` cap small enough that a run takes milliseconds, well inside the SDK's timeout. */
export const HOSTILE_BACKOFF = { initialMs: 1, maxMs: 5, maxAttempts: 3, maxTotalDelayMs: 200 } as const;
export const HOSTILE_RETRY_AFTER_CAP_MS = 100;
export const LABEL = 'test/label';

export interface Settled {
  readonly label: string;
  readonly tool?: Tool;
  readonly settled: 'fulfilled' | 'rejected' | 'hung';
  readonly value?: unknown;
  readonly error?: unknown;
  /** The server's log entries (indices) that arrived while it ran. */
  readonly requests: readonly [number, number];
  /** The engine's events (indices) emitted while it ran. */
  readonly events: readonly [number, number];
  /** The stalled request (its `seq`) for which the test ended the call: the call rejected with the test's own abort. */
  readonly endedOnStall?: number;
}

/** What the client did, in its own order: requests as the engine sent them, answers to `initialize`, and its events. */
export type Moment =
  | { readonly kind: 'send'; readonly sessionId?: string; readonly httpMethod: string; readonly rpcMethod?: string }
  | { readonly kind: 'initialized'; readonly sessionId?: string }
  /** `deadSoFar`: the ids the server had declared gone when the event was told. */
  | { readonly kind: 'event'; readonly event: ResilienceEvent; readonly deadSoFar: readonly string[] };

export interface HostileRun {
  readonly scenario: Scenario;
  readonly connect: Settled;
  readonly calls: readonly Settled[];
  readonly events: readonly ResilienceEvent[];
  readonly timeline: readonly Moment[];
  readonly log: readonly Received[];
  readonly minted: readonly string[];
  /** Unhandled rejections and uncaught exceptions seen while the run went on. */
  readonly escaped: readonly string[];
  /** The server after `stop()`: still listening, connections open, and the address it listened on. */
  readonly afterStop: { readonly listening: boolean; readonly openConnections: number; readonly host: string };
}

/** The test's abort of a call, once the server stalled one of its requests (an McpError: the SDK rejects the call with it as it is). */
class EndedOnStall extends McpError {
  constructor(readonly seq: number) {
    super(ErrorCode.RequestTimeout, `ended by the test: the server stalled request ${seq}`);
  }
}

/**
 * The calls in flight, each with the abort the test ends it with once the server stalls one of
 * its requests (by its label; a stalled request of no call's, an initialize say, ends every call in flight).
 */
class StallEnder {
  readonly #inFlight = new Map<string, AbortController>();

  signal(label: string): AbortSignal {
    const controller = new AbortController();
    this.#inFlight.set(label, controller);
    return controller.signal;
  }

  settled(label: string): void {
    this.#inFlight.delete(label);
  }

  stalled(request: Received): void {
    const ended = new EndedOnStall(request.seq);
    if (request.label === undefined) for (const controller of this.#inFlight.values()) controller.abort(ended);
    else this.#inFlight.get(request.label)?.abort(ended);
  }
}

async function settle(label: string, promise: Promise<unknown>, window: () => { requests: number; events: number }, ender: StallEnder): Promise<Settled> {
  const start = window();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<Pick<Settled, 'settled'>>((resolve) => {
    timer = setTimeout(() => resolve({ settled: 'hung' }), SETTLE_WITHIN_MS);
  });
  const outcome = await Promise.race([
    promise.then((value) => ({ settled: 'fulfilled' as const, value }), (error: unknown) => ({ settled: 'rejected' as const, error })),
    hung,
  ]).finally(() => {
    clearTimeout(timer);
    ender.settled(label);
  });
  const end = window();
  const endedOnStall = 'error' in outcome && outcome.error instanceof EndedOnStall ? outcome.error.seq : undefined;
  return { label, ...outcome, requests: [start.requests, end.requests], events: [start.events, end.events], ...(endedOnStall === undefined ? {} : { endedOnStall }) };
}

/** Lets rejections and exceptions of the run's last moments surface (a few turns of the event loop). */
async function drain(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Runs one scenario; stops the client and the server whatever happens. */
export async function runHostile(scenario: Scenario): Promise<HostileRun> {
  const escaped: string[] = [];
  const onRejection = (reason: unknown) => escaped.push(`unhandledRejection: ${String((reason as Error)?.stack ?? reason)}`);
  const onException = (error: Error) => escaped.push(`uncaughtException: ${String(error?.stack ?? error)}`);
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  const ender = new StallEnder();
  const server = await startHostileServer(scenario.script, (request) => ender.stalled(request));
  const events: ResilienceEvent[] = [];
  const timeline: Moment[] = [];
  const recording: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    const sessionId = headers.get('mcp-session-id') ?? undefined;
    let rpcMethod: string | undefined;
    try {
      const method = (JSON.parse(typeof init?.body === 'string' ? init.body : '') as { method?: unknown }).method;
      if (typeof method === 'string') rpcMethod = method;
    } catch {
      // no JSON body
    }
    timeline.push({ kind: 'send', httpMethod: init?.method ?? 'GET', ...(sessionId === undefined ? {} : { sessionId }), ...(rpcMethod === undefined ? {} : { rpcMethod }) });
    const response = fetch(input, init);
    if (rpcMethod !== 'initialize') return response;
    return response.then((r) => {
      const id = r.headers.get('mcp-session-id')?.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, ''); // as it would go on the wire
      timeline.push({ kind: 'initialized', ...(id === undefined ? {} : { sessionId: id }) });
      return r;
    });
  };
  const fetchFn = createResilientFetch({
    fetch: recording, backoff: HOSTILE_BACKOFF, retryAfterCapMs: HOSTILE_RETRY_AFTER_CAP_MS, random: () => 0.5,
    tools: { readOnlyTools: ['echo'] },
    onEvent: (event) => {
      events.push(event);
      timeline.push({ kind: 'event', event, deadSoFar: [...server.dead] });
    },
  });
  const window = () => ({ requests: server.log.length, events: events.length });
  const client = new Client({ name: 'hostile-fuzz', version: '0' });
  const calls: Settled[] = [];
  let connect: Settled | undefined;
  try {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      fetch: fetchFn, reconnectionOptions: { initialReconnectionDelay: 5, maxReconnectionDelay: 20, reconnectionDelayGrowFactor: 2, maxRetries: 2 },
    });
    const connecting = client.connect(transport, { timeout: SDK_TIMEOUT_MS, signal: ender.signal('connect') });
    connect = await settle('connect', connecting, window, ender);
    if (connect.settled === 'fulfilled') {
      const invoke = async (tool: Tool, i: number): Promise<Settled> => {
        const label = `c${i + 1}-${tool}`;
        const options = { timeout: SDK_TIMEOUT_MS, signal: ender.signal(label) };
        const call = client.callTool({ name: tool, arguments: { text: label }, _meta: { [LABEL]: label } }, undefined, options);
        return { ...(await settle(label, call, window, ender)), tool };
      };
      if (scenario.concurrent) calls.push(...(await Promise.all(scenario.calls.map(invoke))));
      else {
        for (const [i, tool] of scenario.calls.entries()) {
          const outcome = await invoke(tool, i);
          calls.push(outcome);
          if (outcome.settled === 'hung') break;
        }
      }
    }
  } finally {
    await client.close().catch(() => {});
    await server.stop();
    await drain();
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  }
  return {
    scenario, connect: connect ?? { label: 'connect', settled: 'hung', requests: [0, 0], events: [0, 0] }, calls,
    events: [...events], timeline: [...timeline], log: [...server.log], minted: [...server.minted], escaped,
    afterStop: { listening: server.listening(), openConnections: server.openConnections(), host: server.address.address },
  };
}
