import type { AsyncLocalStorage } from 'node:async_hooks';
import { createResilientFetch, type ResilienceEvent } from '@mcp-resilience/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { errorCodeOf, resultText, SOAK_TRUST, type PlannedCall } from './soak-workload.ts';

/**
 * The engine's settings in the soak: a small backoff (waits of milliseconds) that still
 * outlasts a 300 ms refusal, `Retry-After` honoured up to 2 s, the soak's tool trust, and the
 * default retry budget (20 % of calls in a 10 s window) with a floor of 50 retries instead of
 * 10: a busy client has 3 calls in flight, each retrying ~6 times through a refusal, and a
 * fixed window that just started has only its floor to give.
 *
 * @example
 * createResilientFetch({ ...SOAK_ENGINE, fetch, onEvent });
 */
export const SOAK_ENGINE = {
  backoff: { initialMs: 10, maxMs: 200, maxAttempts: 10, maxTotalDelayMs: 5_000 },
  retryAfterCapMs: 2_000,
  retryBudget: { minPerWindow: 50 },
  tools: SOAK_TRUST,
} as const;

/** Where a call's label travels in its request (`params._meta`), so the wire can be tied to calls. */
const LABEL_META = 'soak/label';
const LABEL_IN_BODY = /"soak\/label":"([^"]+)"/;

/**
 * Per call, by label: what went on the wire for it and what the engine did with it.
 *
 * @example
 * const traffic = new TrafficRecorder();
 * traffic.sent('c7'); traffic.replayed('c7');
 * traffic.replays.get('c7'); // 1
 */
export class TrafficRecorder {
  readonly replays = new Map<string, number>();
  readonly sends = new Map<string, number>();
  readonly sessionGone = new Map<string, number>();
  /** The sessions (their ids, in this process only) on which each call met "session gone". */
  readonly sessionsLost = new Map<string, Set<string>>();
  unattributedReplays = 0;

  static #bump(map: Map<string, number>, label: string): void {
    map.set(label, (map.get(label) ?? 0) + 1);
  }

  /** A request of the call went out. */
  sent(label: string): void {
    TrafficRecorder.#bump(this.sends, label);
  }

  /** A request of the call, sent on session `sessionId` (if any), was answered "session gone" (404, or 400 in the express dialect). */
  gone(label: string, sessionId?: string): void {
    TrafficRecorder.#bump(this.sessionGone, label);
    if (sessionId !== undefined) this.sessionsLost.set(label, (this.sessionsLost.get(label) ?? new Set()).add(sessionId));
  }

  /** The engine replayed a tools/call on a new session: `label` is the call it did it for, if known. */
  replayed(label: string | undefined): void {
    if (label === undefined) this.unattributedReplays += 1;
    else TrafficRecorder.#bump(this.replays, label);
  }
}

export interface SoakClientOptions {
  readonly url: string;
  /**
   * Whether the client keeps the SDK's standalone GET stream. One that does not is answered
   * 405 (as by a server without one), so its session can go idle: idle expiry and capacity
   * eviction only ever take a session with no stream open.
   */
  readonly standaloneStream: boolean;
  /** The engine's random source (jitter). */
  readonly random: () => number;
  /** The label of the call running in the current async context. */
  readonly labels: AsyncLocalStorage<string>;
  readonly traffic: TrafficRecorder;
  /** Every engine event, with the label of the call it was decided for (when it was). */
  readonly onEvent: (event: ResilienceEvent) => void;
}

/**
 * An official SDK 1.x client connected to the chaos server through the engine
 * (`createResilientFetch`), over a fetch that notes each request of a labelled call.
 *
 * @example
 * const client = await connectSoakClient({ url: chaos.url, standaloneStream: true, random: Math.random, labels, traffic, onEvent });
 */
export async function connectSoakClient(options: SoakClientOptions): Promise<Client> {
  const { traffic, labels } = options;
  const wire: typeof fetch = async (input, init) => {
    const method = init?.method ?? 'GET';
    if (!options.standaloneStream && method === 'GET' && !new Headers(init?.headers).has('last-event-id')) {
      return new Response(null, { status: 405, statusText: 'Method Not Allowed' });
    }
    const label = typeof init?.body === 'string' ? LABEL_IN_BODY.exec(init.body)?.[1] : undefined;
    if (label !== undefined) traffic.sent(label);
    const response = await fetch(input, init);
    if (label !== undefined && (response.status === 404 || response.status === 400)) {
      traffic.gone(label, new Headers(init?.headers).get('mcp-session-id') ?? undefined);
    }
    return response;
  };
  const engine = createResilientFetch({
    ...SOAK_ENGINE, fetch: wire, random: options.random,
    onEvent: (event) => {
      const label = labels.getStore();
      if (event.type === 'replayed' && event.method === 'tools/call') traffic.replayed(label);
      options.onEvent(event);
    },
  });
  const client = new Client({ name: 'mcp-resilience-soak', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(options.url), { fetch: engine }));
  return client;
}

/** How a call settled. */
export type Settled =
  | { readonly settled: 'fulfilled'; readonly text?: string; readonly isError?: boolean }
  | { readonly settled: 'rejected' | 'hung'; readonly errorCode: string; readonly message: string };

/**
 * Makes one call, its label in the async context (so the engine's events map to it) and in
 * its `_meta` (so its requests do). A call not settled within `watchdogMs` has hung: it is
 * aborted and reported as such, never waited for.
 *
 * @example
 * const outcome = await invoke(client, { label: 'c1', tool: 'echo', args: { text: 'hi' } }, labels, 20_000);
 */
export async function invoke(client: Client, call: PlannedCall, labels: AsyncLocalStorage<string>, watchdogMs: number): Promise<Settled> {
  const abort = new AbortController();
  const request = labels.run(call.label, () => client.callTool(
    { name: call.tool, arguments: { ...call.args }, _meta: { [LABEL_META]: call.label } }, undefined,
    { signal: abort.signal, timeout: watchdogMs + 10_000, ...(call.tool === 'slow' ? { onprogress: () => {} } : {}) },
  ));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<Settled>((resolve) => {
    timer = setTimeout(() => resolve({ settled: 'hung', errorCode: 'HUNG', message: `not settled within ${watchdogMs} ms` }), watchdogMs);
  });
  const settled = request.then(
    (value): Settled => {
      const text = resultText(value);
      return { settled: 'fulfilled', ...(text === undefined ? {} : { text }), ...(value.isError === true ? { isError: true } : {}) };
    },
    (error: unknown): Settled => ({ settled: 'rejected', errorCode: errorCodeOf(error), message: error instanceof Error ? error.message : String(error) }),
  );
  try {
    const outcome = await Promise.race([settled, hung]);
    if (outcome.settled === 'hung') abort.abort(new Error('soak watchdog'));
    return outcome;
  } finally {
    clearTimeout(timer);
  }
}
