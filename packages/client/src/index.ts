/**
 * @mcp-resilience/client — the engine: a `fetch` that makes the official MCP SDK client
 * survive session churn, carrying out `@mcp-resilience/core`'s decisions over HTTP with
 * web-standard APIs only (runs unchanged on Node, Deno, Workers and in browsers).
 *
 * @example
 * import { createResilientFetch } from '@mcp-resilience/client';
 * const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: createResilientFetch() });
 *
 * @module
 */
export { connect, type ConnectOptions } from './connect.ts';
export { createResilientFetch, refusedBeforeSending, type ResilientFetchOptions } from './resilient-fetch.ts';
export { CREDENTIAL_HEADERS, MemorySessionStore, storableHeaders, type SessionStore, type StoredSession } from './session-store.ts';
export { defaultSleep, type Sleep } from './sleep.ts';
export {
  isResilienceError, ResilienceError, resilienceCodeOf, SURFACED_ERROR_CODE, type ErrorCode, type ResilienceEvent,
} from '@mcp-resilience/core';
