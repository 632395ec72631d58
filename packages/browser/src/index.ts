/**
 * @mcp-resilience/browser — MCP clients that survive session churn, in browsers: the engine of
 * `@mcp-resilience/client` with the browser's ports. A session id hidden by CORS fails at
 * `initialize` with `SESSION_ID_HIDDEN`, naming the header the server must send; a failed fetch
 * says "blocked or unreachable (CORS, network)" while online and counts as not sent only when the
 * browser was offline from before it started (going offline during it is an unknown outcome); backoff pauses while offline and goes at once when back; waits are re-checked by the
 * wall clock when a tab is shown again; the session is kept in `sessionStorage` for a reload, or
 * ended with a `keepalive` DELETE on `pagehide`.
 *
 * @example
 * import { connect } from '@mcp-resilience/browser';
 * const client = await connect('https://mcp.example.com/mcp', { identity: `user:${user.id}`, onEvent: console.log });
 * await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
 *
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  connect as connectEngine, createResilientFetch as createEngineFetch, type ConnectOptions, type ResilienceMiddleware, type ResilientFetch,
  type ResilientFetchOptions, type SessionStore,
} from '@mcp-resilience/client';
import { DEFAULT_RUNTIME, middlewareOf, withRuntimeDefaults, type AdapterRuntime } from '@mcp-resilience/client/adapter';
import { browserFetch, browserSleep, corsHidesHeaders, offlineNotSent } from './browser-ports.ts';
import { WebStorageSessionStore } from './web-storage-store.ts';

export * from '@mcp-resilience/client';
export { browserFetch, browserSleep, corsHidesHeaders, offlineNotSent } from './browser-ports.ts';
export { STORAGE_PREFIX, WebStorageSessionStore } from './web-storage-store.ts';

/** What the browser adds to the engine's options. */
export interface BrowserOptions {
  /**
   * Where the session is kept for a reload: `'session'` (`sessionStorage`, per tab; the default),
   * `'local'` (`localStorage`, shared by the origin's tabs), or `false`. A `sessionStore` given wins.
   */
  readonly persist?: 'session' | 'local' | false;
  /**
   * End the session with a `keepalive` DELETE on `pagehide` (not when the page goes into the
   * back/forward cache). Default: when nothing persists it, since a reload could not go on with it.
   */
  readonly endSessionOnPageHide?: boolean;
}

/**
 * The browser's facts, the one object this adapter fills the engine's options from: waits that
 * pause offline and are re-checked by the wall clock when a tab is shown again, a failed fetch
 * counted as not sent only when it started offline (read by `browserFetch` before it calls
 * `fetch`), response headers CORS hides, `log: true` as `console.warn`.
 * (The session store, `fetch`'s CORS diagnosis and the pagehide DELETE are options of the adapter.)
 *
 * @example
 * const fetch = engineFetch(withRuntimeDefaults({ log: true }, browserRuntime));
 */
export const browserRuntime: AdapterRuntime = Object.freeze({
  ...DEFAULT_RUNTIME,
  sleep: browserSleep,
  notSent: offlineNotSent,
  headersHidden: corsHidesHeaders,
  writeLine: (line: string) => console.warn(line),
});

function storeOf(options: ResilientFetchOptions & BrowserOptions): SessionStore | undefined {
  if (options.sessionStore || options.persist === false) return options.sessionStore;
  try {
    return new WebStorageSessionStore(options.persist === 'local' ? globalThis.localStorage : globalThis.sessionStorage);
  } catch {
    return undefined; // storage blocked (a sandboxed frame, say)
  }
}

function browserOptions<T extends ResilientFetchOptions & BrowserOptions>(options: T): T {
  const { persist: _, endSessionOnPageHide: __, ...rest } = options;
  const sessionStore = storeOf(options);
  const fetch = browserFetch(options.fetch ?? ((input, init) => globalThis.fetch(input, init)));
  return withRuntimeDefaults({ ...rest, fetch, ...(sessionStore ? { sessionStore } : {}) } as T, browserRuntime);
}

function endOnPageHide(fetch: ResilientFetch, options: BrowserOptions): void {
  if (!(options.endSessionOnPageHide ?? options.persist === false)) return;
  const onPageHide = (event: PageTransitionEvent) => {
    if (event.persisted) return; // in the back/forward cache: it may come back
    globalThis.removeEventListener('pagehide', onPageHide);
    void fetch.close({ endSessions: true });
  };
  globalThis.addEventListener?.('pagehide', onPageHide);
}

/**
 * `createResilientFetch` of `@mcp-resilience/client` with the browser's ports. Pass it as the
 * `fetch` of the SDK's `StreamableHTTPClientTransport`.
 *
 * @example
 * const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: createResilientFetch({ persist: false }) });
 */
export function createResilientFetch(options: ResilientFetchOptions & BrowserOptions = {}): ResilientFetch {
  const fetch = createEngineFetch(browserOptions(options));
  endOnPageHide(fetch, options);
  return fetch;
}

/**
 * The engine with the browser's ports as an SDK 2.x `Middleware` (`(next) => fetch`), to
 * compose with the SDK's own: the engine's requests go through the middleware listed before it.
 *
 * @example
 * const fetch = applyMiddlewares(withOAuth(provider, url), resilienceMiddleware({ persist: false }))(globalThis.fetch);
 */
export const resilienceMiddleware: (options?: ResilientFetchOptions & BrowserOptions) => ResilienceMiddleware = middlewareOf(createResilientFetch);

/**
 * `connect` of `@mcp-resilience/client` with the browser's ports: a connected SDK 1.x `Client`.
 * A session kept in the store (before a reload) is gone on with, without a new `initialize`
 * (`resumeStored` on by default): the client knows its protocol version, capabilities, server
 * version and instructions, and opens its GET stream. A stored session belongs to one user:
 * `identity` (the signed-in user's id) is required while sessions persist, and a session is only
 * gone on with under the identity that stored it (user B signing in after user A in the same tab
 * gets a session of its own). Without one it rejects `INVALID_OPTION` before sending anything;
 * `persist: false` keeps nothing.
 *
 * @example
 * const client = await connect(url, { identity: `user:${user.id}`, clientInfo: { name: 'app', version: '1.0.0' } });
 */
export async function connect(url: string | URL, options: ConnectOptions & BrowserOptions = {}): Promise<Client> {
  // The engine is made inside connect: its pagehide DELETE goes through the SDK's own terminateSession.
  // With sessions persisting and no `identity`, the engine's connect refuses (INVALID_OPTION) before sending anything.
  const client = await connectEngine(url, { resumeStored: true, ...browserOptions(options) });
  if (!(options.endSessionOnPageHide ?? options.persist === false)) return client;
  const onPageHide = (event: PageTransitionEvent) => {
    if (event.persisted) return;
    globalThis.removeEventListener('pagehide', onPageHide);
    void (client.transport as { terminateSession?: () => Promise<void> } | undefined)?.terminateSession?.().catch(() => {});
  };
  globalThis.addEventListener?.('pagehide', onPageHide);
  return client;
}
