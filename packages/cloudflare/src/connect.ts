import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import {
  connect as connectEngine, createResilientFetch as createEngineFetch,
  type ConnectOptions, type ResilienceMiddleware, type ResilientFetch, type ResilientFetchOptions, type SessionStore,
} from '@mcp-resilience/client';
import { middlewareOf, withRuntimeDefaults } from '@mcp-resilience/client/adapter';
import { invalidOption } from '@mcp-resilience/core';
import { durableSessionStore, type SessionStoreNamespace } from './durable-session-store.ts';
import type { WaitUntilContext } from './workers-ports.ts';
import { workersRuntime, type DEFAULT_BUDGET_MS } from './workers-runtime.ts';

/** Options of {@link createResilientFetch}: the engine's, plus the request's context. */
export interface WorkersFetchOptions extends ResilientFetchOptions {
  /** The handler's `ctx`: background work (store writes, a replaced session's DELETE) goes to its `waitUntil`. */
  readonly ctx?: WaitUntilContext;
  /** The `McpSessionStore` binding: sessions outlive the request there (unless `sessionStore` is given). */
  readonly sessions?: SessionStoreNamespace;
  /**
   * Whose session this is: which object of `sessions` (one per user, tenant or agent), and the
   * `identity` the session is stored under (unless `identity` is given). `connect()` needs it
   * whenever a store is in use: give the user's id, or `'shared'` to say that every request of
   * this Worker shares one MCP session. `createResilientFetch()` defaults it to `"default"`.
   */
  readonly sessionName?: string;
  /** The request's time budget for the engine's own requests, from now (default {@link DEFAULT_BUDGET_MS}). */
  readonly budgetMs?: number;
}

/** Options of {@link connect}. */
export type WorkersConnectOptions = WorkersFetchOptions & Omit<ConnectOptions, keyof ResilientFetchOptions>;

/**
 * The store the options name: `sessionStore`, else the `sessions` binding. A `sessions` key
 * that is there but `undefined` is a binding `env` does not have (`INVALID_BINDING`), never "no store".
 */
function storeOf(options: WorkersFetchOptions): SessionStore | undefined {
  if (options.sessionStore) return options.sessionStore;
  return 'sessions' in options ? durableSessionStore(options.sessions!, options.sessionName) : undefined;
}

/** The engine's options with the Workers ports filled in (and the Workers-only options taken out). */
function engineOptions<T extends WorkersFetchOptions>(options: T, store: SessionStore | undefined): ConnectOptions {
  const { ctx: _ctx, sessions: _sessions, sessionName, budgetMs: _budget, ...rest } = options;
  const identity = rest.identity ?? sessionName; // the object a session is kept in names whose it is
  const filled: ConnectOptions = { ...(rest as ConnectOptions), ...(store ? { sessionStore: store } : {}), ...(identity === undefined ? {} : { identity }) };
  return withRuntimeDefaults(filled, workersRuntime(options));
}

/**
 * `createResilientFetch` of `@mcp-resilience/client` with the Workers ports, for one request:
 * build it inside the handler (never in a global), with the request's `ctx`.
 *
 * @example
 * const fetch = createResilientFetch({ ctx, sessions: env.MCP_SESSIONS });
 * const transport = new StreamableHTTPClientTransport(new URL(url), { fetch });
 */
export function createResilientFetch(options: WorkersFetchOptions = {}): ResilientFetch {
  return createEngineFetch(engineOptions(options, storeOf(options)));
}

/**
 * The engine with the Workers ports as an SDK 2.x `Middleware` (`(next) => fetch`), for one
 * request (build it inside the handler, with the request's `ctx`): the engine's requests go
 * through the middleware listed before it.
 *
 * @example
 * const fetch = applyMiddlewares(withOAuth(provider, url), resilienceMiddleware({ ctx, sessions: env.MCP_SESSIONS }))(globalThis.fetch);
 */
export const resilienceMiddleware: (options?: WorkersFetchOptions) => ResilienceMiddleware = middlewareOf(createResilientFetch);

/**
 * A connected official SDK 1.x `Client` for this request, on the session the store holds for
 * `url` and `sessionName` when there is one: no `initialize` is sent, and the client knows what
 * that session negotiated. With none stored, it connects as usual and stores the session. With
 * a store (`sessions` or `sessionStore`), `sessionName` (or `identity`) is required: every user
 * of a Worker would otherwise continue one session; without, it rejects `INVALID_OPTION` before
 * sending anything (`sessionName: 'shared'` says that is what you want). The JSON-schema
 * validator is `CfWorkerJsonSchemaValidator` unless `clientOptions` names another.
 *
 * @example
 * const client = await connect(url, { sessions: env.MCP_SESSIONS, sessionName: `user:${userId}`, ctx });
 * const { tools } = await client.listTools();
 */
export async function connect(url: string | URL, options: WorkersConnectOptions = {}): Promise<Client> {
  const { clientOptions } = options;
  const store = storeOf(options);
  if (store && options.resumeStored !== false && options.sessionName === undefined && options.identity === undefined) {
    throw invalidOption('sessionName', 'given with a session store: the user\'s, tenant\'s or agent\'s id, or \'shared\' if every request of this Worker may share one MCP session');
  }
  return connectEngine(url, {
    resumeStored: true,
    ...engineOptions(options, store),
    clientOptions: { jsonSchemaValidator: new CfWorkerJsonSchemaValidator(), ...clientOptions },
  });
}
