import type { ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createResilientFetch } from '../resilient-fetch.ts';
import type { Scenario, Tool } from './hostile-arbitraries.ts';
import { startHostileServer, type Received } from './hostile-server.ts';

/*
 * One hostile scenario, run by the official SDK 1.x client through the engine against a
 * fresh hostile server: what each call came to, what the client sent (in its own order) and
 * what the engine told, what the server received, and whether anything escaped the process's
 * promise and exception handling.
 */

/** The SDK's request timeout: a call the server stalls ends then. */
export const SDK_TIMEOUT_MS = 2_000;
/** A call that has not settled by then has hung (the SDK's own timeout did not end it). */
export const SETTLE_WITHIN_MS = 8_000;
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

async function settle(label: string, promise: Promise<unknown>, window: () => { requests: number; events: number }): Promise<Settled> {
  const start = window();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<Pick<Settled, 'settled'>>((resolve) => {
    timer = setTimeout(() => resolve({ settled: 'hung' }), SETTLE_WITHIN_MS);
  });
  const outcome = await Promise.race([
    promise.then((value) => ({ settled: 'fulfilled' as const, value }), (error: unknown) => ({ settled: 'rejected' as const, error })),
    hung,
  ]).finally(() => clearTimeout(timer));
  const end = window();
  return { label, ...outcome, requests: [start.requests, end.requests], events: [start.events, end.events] };
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
  const server = await startHostileServer(scenario.script);
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
    connect = await settle('connect', client.connect(transport, { timeout: SDK_TIMEOUT_MS }), window);
    if (connect.settled === 'fulfilled') {
      const invoke = async (tool: Tool, i: number): Promise<Settled> => {
        const label = `c${i + 1}-${tool}`;
        const call = client.callTool({ name: tool, arguments: { text: label }, _meta: { [LABEL]: label } }, undefined, { timeout: SDK_TIMEOUT_MS });
        return { ...(await settle(label, call, window)), tool };
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
