import {
  advance, canRetry, classify, createRetryBudget, createRetryPolicy, decide, FRESH_CALL, recordCall, recordRetry,
  ResilienceError, type Backoff, type CallState, type Observation, type Operation, type ReplayPolicy, type ResilienceEvent,
  type RetryBudget, type RetryBudgetState, type SessionGoneDialect, type ToolTrust,
} from '@mcp-resilience/core';
import { readBounded } from './bounded-read.ts';
import { whenBodyEnds } from './body-end.ts';
import { EndpointSession } from './endpoint-session.ts';
import { isEventStream, isJson, jsonAnswer, readPostBody, type PostBody } from './messages.ts';
import { watchAnswer } from './answer-watch.ts';
import { restoreResponseId, withRequestId } from './request-id.ts';
import type { SessionStore } from './session-store.ts';
import { defaultSleep, type Sleep } from './sleep.ts';
import { superviseStream, type StreamCall } from './stream-supervisor.ts';

/** Options of {@link createResilientFetch}; every one has a default. */
export interface ResilientFetchOptions {
  /** The fetch that goes to the network (default: the global `fetch`). */
  readonly fetch?: typeof fetch;
  /** Told of every decision the engine carries out. */
  readonly onEvent?: (event: ResilienceEvent) => void;
  /** When a call whose outcome is unknown may be sent again (default `safe`). */
  readonly replay?: ReplayPolicy;
  /** Tools the application vouches for as read-only or idempotent. */
  readonly tools?: ToolTrust;
  readonly backoff?: Partial<Backoff>;
  /** The longest `Retry-After` honoured (default 20 s). */
  readonly retryAfterCapMs?: number;
  /** A ratio of retries to calls for the whole client; `false` turns it off. */
  readonly retryBudget?: Partial<RetryBudget> | false;
  /** Replace a session idle this long before the next call instead of discovering it dead. */
  readonly idleBudgetMs?: number;
  /** The server's idle budget, when known: sharpens the diagnosis of a loss. */
  readonly serverIdleBudgetMs?: number;
  /** More ways servers say "session gone". */
  readonly dialects?: readonly SessionGoneDialect[];
  /** The clock (default `Date.now`) and random source (default `Math.random`), for tests. */
  readonly now?: () => number;
  readonly random?: () => number;
  /** How to wait (a runtime port: Node's adapter passes timers that do not hold the process). */
  readonly sleep?: Sleep;
  /** Whether a failed fetch provably sent nothing (a runtime port; default {@link refusedBeforeSending}). */
  readonly notSent?: (error: unknown) => boolean;
  /** Where sessions outlive this engine (a runtime port: Durable Objects, `sessionStorage`, …). */
  readonly sessionStore?: SessionStore;
}

type Fetch = typeof fetch;

function urlOf(input: Parameters<Fetch>[0]): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

/** Statuses whose responses have no body (Fetch standard: a null body status). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** Requests whose success is session state, restored on a new session. */
const SESSION_STATE_METHODS: ReadonlySet<string> = new Set(['resources/subscribe', 'resources/unsubscribe', 'logging/setLevel']);

/** Records a subscription or log level whose request was answered with a result (not an error). */
function recordSessionState(session: EndpointSession, body: PostBody): void {
  const { method, params } = body.message!;
  if (method === 'resources/subscribe' && typeof params?.uri === 'string') session.subscriptions.add(params.uri);
  if (method === 'resources/unsubscribe' && typeof params?.uri === 'string') session.subscriptions.delete(params.uri);
  if (method === 'logging/setLevel' && typeof params?.level === 'string') session.logLevel = params.level;
  session.save();
}

/** How one call is run: supervised (its SSE body watched for breaks) and from which state. */
interface CallOptions {
  readonly supervise: boolean;
  readonly state: CallState;
  /** Counted as a call in the retry budget (a re-issue from the supervisor is not a new call). */
  readonly counted: boolean;
  /** Sent as it is, outside the session logic: the `initialize` of a re-initialization. */
  readonly sessionless?: boolean;
  /** Told of the call's state after every step, so that a re-issue's replays and waits count for the call. */
  readonly report?: (state: CallState) => void;
  /** The call is already counted as in flight on its endpoint (it must not find itself "in use"). */
  readonly entered?: boolean;
}

const FIRST_ATTEMPT: CallOptions = { supervise: true, state: FRESH_CALL, counted: true };
const REINITIALIZE: CallOptions = { supervise: false, state: FRESH_CALL, counted: false, sessionless: true };

function operationOf(body: PostBody): Operation {
  const message = body.message;
  if (body.kind !== 'request' && body.kind !== 'notification') return {};
  const name = message?.params?.name;
  return { method: message!.method!, ...(message?.method === 'tools/call' && typeof name === 'string' ? { toolName: name } : {}) };
}

/**
 * Whether a failed fetch provably sent nothing (the connection was refused), as the runtimes
 * we know say it: Node's undici (`cause.code` ECONNREFUSED) and Deno ("Connection refused").
 * Anything else may have reached the server. A runtime port: adapters may pass their own.
 */
export function refusedBeforeSending(error: unknown): boolean {
  const e = error as { cause?: { code?: unknown; message?: unknown }; message?: unknown } | undefined;
  if (e?.cause?.code === 'ECONNREFUSED') return true;
  return [e?.message, e?.cause?.message].some((m) => typeof m === 'string' && /connection refused/i.test(m));
}

/**
 * A `fetch` for the official MCP SDK's Streamable HTTP client transport (1.x and 2.x take a
 * `fetch` option) that makes the client survive session churn with no other change:
 * a session that the server ended is replaced by one re-initialization shared by all
 * concurrent calls (the client's own `initialize`, then its subscriptions and log level), the
 * failed call is sent again once, and a dead session id is never sent again; 429 and 5xx are
 * backed off on the same session; a call that cannot be repeated safely fails at once with a
 * typed error (`ResilienceError`: `SESSION_LOST`, `OUTCOME_UNKNOWN`, `RETRY_AFTER_TOO_LONG`, …).
 * Every decision is made by `@mcp-resilience/core` and reported through `onEvent`.
 *
 * @example
 * const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: createResilientFetch({ onEvent: console.log }) });
 * await new Client({ name: 'app', version: '1.0.0' }).connect(transport);
 */
export function createResilientFetch(options: ResilientFetchOptions = {}): Fetch {
  const base = options.fetch ?? ((input: Parameters<Fetch>[0], init?: RequestInit) => fetch(input, init));
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? defaultSleep;
  const notSent = options.notSent ?? refusedBeforeSending;
  const emit = (event: ResilienceEvent) => options.onEvent?.(event);
  const policy = createRetryPolicy({
    ...(options.replay === undefined ? {} : { replay: options.replay }),
    ...(options.tools === undefined ? {} : { tools: options.tools }),
    ...(options.backoff === undefined ? {} : { backoff: options.backoff }),
    ...(options.retryAfterCapMs === undefined ? {} : { retryAfterCapMs: options.retryAfterCapMs }),
  });
  const budget = options.retryBudget === false ? undefined : createRetryBudget(options.retryBudget ?? {});
  let budgetState: RetryBudgetState | undefined;
  const endpoints = new Map<string, EndpointSession>();
  const sessionDeps = {
    fetch: base, emit, now,
    initialize: (url: string, init: RequestInit & { body: string }) => call(endpointFor(url), url, init, readPostBody(init.body), REINITIALIZE),
    ...(options.idleBudgetMs === undefined ? {} : { idleBudgetMs: options.idleBudgetMs }),
    ...(options.serverIdleBudgetMs === undefined ? {} : { serverIdleBudgetMs: options.serverIdleBudgetMs }),
    ...(options.sessionStore === undefined ? {} : { store: options.sessionStore }),
  };

  /** One logical call: sent, then carried through core's decisions until it is answered or given up. */
  async function call(
    session: EndpointSession, url: string, init: RequestInit, body: PostBody | undefined, run: CallOptions = FIRST_ATTEMPT,
  ): Promise<Response> {
    const method = init.method ?? 'GET';
    const operation: Operation = body ? operationOf(body) : method === 'GET' ? { stream: true } : {};
    const originalId = body?.kind === 'request' ? (body.message!.id as string | number) : undefined;
    let text = body?.text;
    let sentId = originalId;
    let state = run.state;
    if (budget && run.counted) budgetState = recordCall(budgetState, budget, now());
    for (;;) {
      const headers = new Headers(init.headers);
      const sdkSentSession = headers.has('mcp-session-id');
      if (!run.sessionless) {
        if (session.changed) throw session.changed;
        await session.prepare(sdkSentSession, state === run.state, run.entered === true);
        // A re-initialization it waited for may have changed the session (to a revision without sessions, even).
        if (session.changed) throw session.changed;
        session.stamp(headers);
      }
      const ordinal = session.tracker.current?.ordinal ?? 0;
      // The negotiated revision; without an initialize (2026-07-28), the one the request declares.
      const revision = session.negotiated?.revision ?? headers.get('mcp-protocol-version') ?? undefined;
      const facts = {
        ...(revision === undefined ? {} : { revision }),
        sessionIdSent: headers.has('mcp-session-id'), httpMethod: method as 'POST' | 'GET' | 'DELETE',
        ...(operation.method === undefined ? {} : { rpcMethod: operation.method }),
      };
      let response: Response | undefined;
      let observation: Observation;
      try {
        response = await base(url, { ...init, headers, ...(text === undefined ? {} : { body: text }) });
      } catch (error) {
        if (init.signal?.aborted) throw error;
        observation = { kind: 'network', phase: notSent(error) ? 'before-send' : 'after-send', ...facts };
      }
      let errorText = '';
      if (response) {
        if (response.ok) {
          session.touch();
          if (run.supervise && isEventStream(response) && response.body && originalId !== undefined && sentId !== undefined && text !== undefined) {
            return superviseStream(response, streamCall({ session, url, init, text, originalId, sentId, operation, ordinal, facts, state }));
          }
          // A request is answered by JSON or an event stream. Its JSON answer is read whole here: cut
          // mid-body, or without the response to the request (another id, none, garbage), it is a stream
          // that ended before its response, decided like one; so is a 2xx with no body, or a body of
          // another type (a 202 or 204 to a request, an HTML page): nothing in it answers the request.
          const request = originalId !== undefined && sentId !== undefined;
          const answerless = request && !(response.body && (isJson(response) || isEventStream(response)));
          const json = request && !answerless && isJson(response);
          const body = json ? await response.text().then((text) => text, () => undefined) : undefined; // undefined: cut mid-body
          if (json && body === undefined && init.signal?.aborted) throw init.signal.reason;
          const answer = body === undefined ? undefined : jsonAnswer(body, sentId!);
          if (answerless || (json && !answer)) {
            if (answerless) await response.body?.cancel().catch(() => {});
            observation = { kind: 'stream-ended', ...facts };
          } else {
            if (answer) response = new Response(answer, { status: response.status, statusText: response.statusText, headers: response.headers });
            return sentId !== originalId && originalId !== undefined && sentId !== undefined
              ? restoreResponseId(response, sentId, originalId)
              : response;
          }
        } else {
          errorText = await readBounded(response);
          observation = {
            kind: 'http', status: response.status, retryAfter: response.headers.get('retry-after'),
            contentType: response.headers.get('content-type'), body: errorText, ...facts,
          };
        }
      }
      const verdict = classify(observation!, { ...(options.dialects ? { dialects: options.dialects } : {}) });
      const action = decide({
        verdict, call: state, operation, policy, nowMs: now(), random: random(),
        ...(revision === undefined ? {} : { revision }),
        ...(budget ? { retryBudgetAllows: canRetry(budgetState, budget, now()) } : {}),
      });
      if (verdict.kind === 'session-gone') session.lost(ordinal, verdict.dialect, operation.method, verdict.serverUptimeSeconds);
      else if (response) session.touch(); // the session answered: in use, a 429 as much as a 200
      switch (action.type) {
        case 'deliver': // a 304 (a status that has no body) cannot be given one, even an empty one
          return new Response(NULL_BODY_STATUSES.has(response!.status) ? null : errorText, {
            status: response!.status, statusText: response!.statusText, headers: response!.headers,
          });
        case 'give-up':
          emit({ type: 'gave-up', ...(operation.method === undefined ? {} : { method: operation.method }), code: action.error.code, atMs: now() });
          throw new ResilienceError(action.error, { cause: observation! });
        case 'reinitialize-and-replay':
          await session.recover(ordinal);
          state = advance(state, action);
          run.report?.(state);
          emit({
            type: 'replayed', session: session.tracker.current?.ordinal ?? 0,
            ...(operation.method === undefined ? {} : { method: operation.method }), ...(operation.stream ? { stream: true } : {}), atMs: now(),
          });
          break;
        case 'resume': // a response stream only breaks once it was handed on; not reached for a failed exchange
        case 'retry':
        case 'reissue': {
          if (budget) budgetState = recordRetry(budgetState, budget, now());
          const reason = { ...(operation.method === undefined ? {} : { method: operation.method }), attempt: action.attempt, delayMs: action.delayMs };
          if (action.type === 'reissue') emit({ type: 'reissued', ...reason, atMs: now() });
          else emit({ type: 'backed-off', ...reason, verdict: verdict.kind, ...(response ? { status: response.status } : {}), atMs: now() });
          await sleep(action.delayMs, init.signal ?? undefined);
          if (action.type === 'reissue' && originalId !== undefined && text !== undefined) {
            sentId = `${String(originalId)}~r${action.attempt}`;
            text = withRequestId(text, sentId);
          }
          state = advance(state, action);
          run.report?.(state);
        }
      }
    }
  }

  /** The supervisor's view of one call whose response stream it watches. */
  function streamCall(c: {
    session: EndpointSession; url: string; init: RequestInit; text: string; originalId: string | number; sentId: string | number;
    operation: Operation; ordinal: number; facts: Omit<Observation, 'kind'>; state: CallState;
  }): StreamCall {
    const { session, url, init, operation } = c;
    const stream: StreamCall = {
      originalId: c.originalId, sentId: c.sentId, state: c.state,
      ...(operation.method === undefined ? {} : { method: operation.method }),
      decide: (ended) => decide({
        verdict: classify({ kind: 'stream-ended', ...c.facts, ...ended } as Observation), call: stream.state, operation, policy,
        nowMs: now(), random: random(), ...(c.facts.revision === undefined ? {} : { revision: c.facts.revision }),
        ...(budget ? { retryBudgetAllows: canRetry(budgetState, budget, now()) } : {}),
      }),
      async resume(lastEventId) {
        // A cursor belongs to its session: on another one it means nothing.
        if ((session.tracker.current?.ordinal ?? 0) !== c.ordinal) return undefined;
        const headers = new Headers(init.headers);
        session.stamp(headers);
        headers.delete('content-type');
        headers.set('accept', 'text/event-stream');
        headers.set('last-event-id', lastEventId);
        try {
          const response = await base(url, { method: 'GET', headers, redirect: 'manual', ...(init.signal ? { signal: init.signal } : {}) });
          if (response.ok && isEventStream(response) && response.body) return response;
          await response.body?.cancel().catch(() => {});
        } catch {
          // Not resumable after all: the next decision knows.
        }
        return undefined;
      },
      reissue: (id) => {
        if (budget) budgetState = recordRetry(budgetState, budget, now());
        return call(session, url, init, readPostBody(withRequestId(c.text, id)), {
          supervise: false, state: stream.state, counted: false, report: (state) => (stream.state = state),
        });
      },
      sleep: (ms) => sleep(ms, init.signal ?? undefined),
      emit: (event) => emit({ ...event, atMs: now() } as ResilienceEvent),
      aborted: () => init.signal?.aborted === true,
    };
    return stream;
  }

  function endpointFor(url: string): EndpointSession {
    const key = url.split('#')[0]!;
    let session = endpoints.get(key);
    if (!session) endpoints.set(key, (session = new EndpointSession(url, sessionDeps)));
    return session;
  }

  return async function resilientFetch(input, init = {}) {
    const url = urlOf(input);
    const session = endpointFor(url);
    await session.load();
    session.noteCredentials(new Headers(init.headers));
    const method = (init.method ?? 'GET').toUpperCase();
    if (method === 'GET') {
      const response = await call(session, url, { ...init, method }, undefined);
      return response.ok && isEventStream(response) ? whenBodyEnds(response, session.openStream()) : response;
    }
    if (method !== 'POST') return call(session, url, { ...init, method }, undefined);
    if (typeof init.body !== 'string') return base(input, init); // a body that cannot be read twice cannot be replayed
    const body = readPostBody(init.body);
    const headers = new Headers(init.headers);
    const rpcMethod = body.message?.method;
    if (rpcMethod === 'initialize' && !headers.has('mcp-session-id')) {
      session.rememberInitialize(body.text, headers);
      const response = await call(session, url, init, body);
      await session.learn(response);
      return response;
    }
    if (rpcMethod === 'notifications/initialized') session.rememberInitialized(body.text, headers);
    let response: Response;
    const leave = session.enter();
    try {
      response = whenBodyEnds(await call(session, url, init, body, { ...FIRST_ATTEMPT, entered: true }), leave);
    } catch (error) {
      leave();
      throw error;
    }
    if (response.ok && body.kind === 'request' && SESSION_STATE_METHODS.has(rpcMethod!)) {
      return watchAnswer(response, body.message!.id as string | number, (answer) => {
        if ('result' in answer) recordSessionState(session, body);
      });
    }
    return response;
  };
}
