/**
 * @mcp-resilience/client — the engine: a `fetch` that makes the official MCP SDK client
 * survive session churn, carrying out `@mcp-resilience/core`'s decisions over HTTP with
 * web-standard APIs only (runs unchanged on Node, Deno, Workers and in browsers). What a
 * runtime adapter fills in is on the `@mcp-resilience/client/ports` entry.
 *
 * @example
 * import { createResilientFetch } from '@mcp-resilience/client';
 * const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: createResilientFetch() });
 *
 * @module
 */
export { connect, type ConnectOptions } from './connect.ts';
export { createResilientFetch, type ResilientFetch, type ResilientFetchOptions } from './resilient-fetch.ts';
export { IDEMPOTENCY_KEY, type ResiliencePolicy, type SessionRestoredContext } from './options.ts';
export type { RuntimePorts } from './ports.ts';
export { resilienceMiddleware, type FetchLike, type ResilienceMiddleware } from './middleware.ts';
export { callLongTool, type LongToolOptions, type TaskClient, type ToolCallParams, type ToolResult } from './call-long-tool.ts';
export { describeEvent } from './describe-event.ts';
export type { LogOption } from './event-logger.ts';
export { MemorySessionStore, type SessionStore, type StoredSession } from './session-store.ts';
export { sessionStoreKey } from './store-key.ts';
export {
  isResilienceError, ResilienceError, resilienceCodeOf, SURFACED_ERROR_CODE, type ErrorCode, type LossReport, type ResilienceEvent,
  type TaskFacts, type TaskPollPolicy, type TaskStatus,
} from '@mcp-resilience/core';
