import { createsTask, defined, type Operation } from '@mcp-resilience/core';
import { whenBodyEnds } from './body-end.ts';
import type { CallRequest } from './call-request.ts';
import { CallRunner } from './call-runner.ts';
import { isTokenRequest } from './credentials.ts';
import type { EndpointSession } from './endpoint-session.ts';
import { Engine } from './engine.ts';
import { createEventLogger } from './event-logger.ts';
import { isJsonRpc, requestInit } from './fetch-input.ts';
import { LineageRegistry } from './lineage-registry.ts';
import { isEventStream, readPostBody, type PostBody } from './messages.ts';
import { IDEMPOTENCY_KEY, type ResilientFetchOptions } from './options.ts';
import { passThrough } from './wire.ts';

export type { ResilientFetchOptions } from './options.ts';

/** A `fetch` that survives session churn, and the way to let it go. */
export interface ResilientFetch {
  (input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /**
   * Lets the engine go: every wait under way (a backoff, a re-initialization) ends at once with
   * `ENGINE_CLOSED`, requests already on the wire finish, later calls fail with `ENGINE_CLOSED`,
   * and every client lineage is forgotten. With `endSessions`, each client's current session is
   * also ended on its server (DELETE, with that client's own headers) and removed from the session
   * store; without, the store keeps them for another engine (a reload, the next request of a
   * Worker) to go on with.
   */
  close(options?: { readonly endSessions?: boolean }): Promise<void>;
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
 * const fetch = createResilientFetch({ onEvent: console.log });
 * await new Client({ name: 'app', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(new URL(url), { fetch }));
 * // …
 * await fetch.close();
 */
export function createResilientFetch(options: ResilientFetchOptions = {}): ResilientFetch {
  const logger = createEventLogger(options.log);
  const onEvent = logger && options.onEvent
    ? (event: Parameters<typeof logger>[0]) => (logger(event), options.onEvent!(event))
    : (logger ?? options.onEvent);
  const engine = new Engine(defined({ ...options, onEvent }));
  const lineages = new LineageRegistry(engine, options.lineages);

  /** What core needs to know of a POSTed message: its method, and for a tool call, the tool and what vouches for it. */
  function operationOf(body: PostBody, session: EndpointSession): Operation {
    const message = body.message;
    if (body.kind !== 'request' && body.kind !== 'notification') return {};
    // Vouched for: an idempotency key in its `_meta` (see {@link IDEMPOTENCY_KEY}), or the application's word for this one request.
    const consent = body.kind === 'request' &&
      (typeof (message!.params?._meta as Record<string, unknown> | undefined)?.[IDEMPOTENCY_KEY] === 'string' || options.replayConsent?.(message!) === true);
    const name = message!.method === 'tools/call' ? message!.params?.name : undefined;
    const toolName = typeof name === 'string' ? name : undefined;
    // A task-augmented request creates a task: sent twice, it would create two.
    const task = body.kind === 'request' && createsTask(message!.method, message!.params);
    return defined({
      method: message!.method!, toolName, annotations: toolName === undefined ? undefined : session.annotations(toolName),
      consent: consent || undefined, task: task || undefined,
    });
  }

  /**
   * Whether a request is MCP, the engine's to carry: JSON-RPC POSTed as an `initialize`, with
   * MCP's headers or to an endpoint a client initialized; any other request with MCP's headers.
   */
  function isMcp(url: string, headers: Headers, body: PostBody | undefined): boolean {
    const marked = headers.has('mcp-session-id') || headers.has('mcp-protocol-version');
    if (!body) return marked;
    return isJsonRpc(body) && (marked || body.message?.method === 'initialize' || lineages.knows(url));
  }

  const resilientFetch = async (input: RequestInfo | URL, given: RequestInit = {}): Promise<Response> => {
    engine.assertOpen();
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    // `Request` is there wherever the engine runs (it needs `Response` and `Headers` as much); a string or URL costs no tick.
    const init = input instanceof Request ? await requestInit(input, given) : given;
    // The SDK's own `Headers` (a new one for each request) is read as it is; any other form is made one.
    const headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    const method = (init.method ?? 'GET').toUpperCase();
    let body = method === 'POST' && typeof init.body === 'string' ? readPostBody(init.body) : undefined;
    // A body that cannot be read twice cannot be replayed, and what is not MCP is not the engine's: both go as they are.
    if ((method === 'POST' && !body) || !isMcp(url, headers, body)) {
      // An auth provider's token request refused: the renewal that calls wait for will not come.
      if (!isTokenRequest(init)) return passThrough(engine, input, given);
      return passThrough(engine, input, given).then((response) => (response.ok || lineages.renewalFailed(), response));
    }
    // A client's initialize without a session id opens its own lineage; every other request goes to the lineage of the id it carries.
    const rpcMethod = body?.message?.method;
    const opens = rpcMethod === 'initialize' && !headers.has('mcp-session-id');
    const routed = opens ? lineages.open(url) : lineages.route(url, headers);
    const session = routed instanceof Promise ? await routed : routed;
    // Only a lineage with a session sends requests of its own: a request without an id (shared by every client then) lends it nothing.
    if (opens || headers.has('mcp-session-id')) session.clientHeaders.note(headers);
    const callInit = { ...init, method, headers };
    const run = (request: Omit<CallRequest, 'url' | 'init'>, then?: (response: Response) => Response | Promise<Response>) => {
      const response = new CallRunner(engine, session, { url, init: callInit, ...request }).run();
      return then ? response.then(then) : response;
    };
    if (method === 'GET') {
      return run({ operation: { stream: true } }, (response) =>
        response.ok && isEventStream(response) ? whenBodyEnds(response, session.openStream(), (message) => session.notice(message)) : response);
    }
    if (!body) {
      // The application ending its session: until its DELETE is answered, nothing it gets back is the engine's to mend.
      const ended = method === 'DELETE' && headers.has('mcp-session-id') ? session.ends() : undefined;
      return run({ operation: {} }, (response) => {
        if (ended && response.ok) session.terminate();
        return response;
      }).finally(ended);
    }
    const operation = operationOf(body, session);
    if (opens) {
      session.rememberInitialize(body.text, headers);
      return run({ body, operation }, async (response) => (await session.learn(response), response));
    }
    if (rpcMethod === 'notifications/initialized') session.rememberInitialized(body.text, headers);
    // The client gave up on a call (its SDK's timeout or abort): the call is never sent again, and the server hears of it under the id it knows.
    if (rpcMethod === 'notifications/cancelled') {
      const requestId = body.message!.params?.requestId;
      session.clientHeaders.abandoned(requestId);
      // A call no longer in flight is still named as the server knew it (a resumed client's ids are its own): never another client's call.
      const wireId = session.inFlight.cancel(requestId) ?? (typeof requestId === 'string' || typeof requestId === 'number' ? session.wireIdOf(requestId) : requestId);
      if (wireId !== requestId) body = readPostBody(JSON.stringify({ ...body.message, params: { ...body.message!.params, requestId: wireId } }))!;
    }
    return run({ body, operation, done: session.enter(), entered: true });
  };

  return Object.assign(resilientFetch, {
    async close({ endSessions = false }: { readonly endSessions?: boolean } = {}): Promise<void> {
      engine.close();
      await lineages.closeAll(endSessions);
    },
  });
}
