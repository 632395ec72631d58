/**
 * @mcp-resilience/node — MCP clients that survive session churn, on Node: the engine of
 * `@mcp-resilience/client` with Node defaults. Backoff timers are `unref()`ed (a pending retry
 * never keeps the process alive), every event is also published on the `diagnostics_channel`
 * named {@link EVENT_CHANNEL}, and `log: true` prints one line per event to stderr.
 *
 * @example
 * import { connect } from '@mcp-resilience/node';
 * const client = await connect('http://127.0.0.1:3000/mcp', { log: true });
 * await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
 *
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  connect as connectEngine, createResilientFetch as createEngineFetch, type ConnectOptions, type ResilientFetchOptions,
} from '@mcp-resilience/client';
import { withNodeDefaults, type NodeOptions } from './node-defaults.ts';

export {
  CREDENTIAL_HEADERS, defaultSleep, isResilienceError, MemorySessionStore, refusedBeforeSending, ResilienceError, resilienceCodeOf,
  storableHeaders, SURFACED_ERROR_CODE,
} from '@mcp-resilience/client';
export type { SessionStore, StoredSession } from '@mcp-resilience/client';
export type { ConnectOptions, ErrorCode, ResilienceEvent, ResilientFetchOptions, Sleep } from '@mcp-resilience/client';
export { EVENT_CHANNEL, publishEvent } from './diagnostics.ts';
export { describeEvent } from './describe-event.ts';
export { nodeSleep } from './node-sleep.ts';
export type { NodeOptions } from './node-defaults.ts';
export type { LogOption } from './stderr-logger.ts';

/** Options of {@link createResilientFetch}: the engine's, plus `log`. */
export interface NodeResilientFetchOptions extends ResilientFetchOptions, NodeOptions {}

/** Options of {@link connect}: the engine's, the SDK client's and transport's, plus `log`. */
export interface NodeConnectOptions extends ConnectOptions, NodeOptions {}

/**
 * `createResilientFetch` of `@mcp-resilience/client` with Node defaults: unref'd backoff
 * timers, events on `diagnostics_channel`, and the opt-in `log`. Pass it as the `fetch` of the
 * SDK's `StreamableHTTPClientTransport`; your `onEvent` still gets every event.
 *
 * @example
 * const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: createResilientFetch({ log: true }) });
 * await new Client({ name: 'app', version: '1.0.0' }).connect(transport);
 */
export function createResilientFetch(options: NodeResilientFetchOptions = {}): typeof fetch {
  return createEngineFetch(withNodeDefaults(options));
}

/**
 * `connect` of `@mcp-resilience/client` with Node defaults: a connected official SDK 1.x
 * `Client` whose transport goes through the engine, with unref'd backoff timers, events on
 * `diagnostics_channel`, and the opt-in `log`.
 *
 * @example
 * const client = await connect('http://127.0.0.1:3000/mcp', { clientInfo: { name: 'app', version: '1.0.0' }, log: true });
 * const tools = await client.listTools();
 * await client.close();
 */
export function connect(url: string | URL, options: NodeConnectOptions = {}): Promise<Client> {
  return connectEngine(url, withNodeDefaults(options));
}
