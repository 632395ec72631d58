/**
 * @mcp-resilience/node — MCP clients that survive session churn, on Node: the engine of
 * `@mcp-resilience/client` with Node's ports. Backoff timers and deadlines are `unref()`ed (a
 * pending retry never keeps the process alive), a refused connection is known as such (nothing
 * was sent, so it is retried), every event is also published on the `diagnostics_channel`
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
  connect as connectEngine, createResilientFetch as createEngineFetch, type ConnectOptions, type ResilienceMiddleware, type ResilientFetch,
  type ResilientFetchOptions,
} from '@mcp-resilience/client';
import { DEFAULT_RUNTIME, middlewareOf, withRuntimeDefaults, type AdapterRuntime } from '@mcp-resilience/client/adapter';
import { publishEvent } from './diagnostics.ts';
import { nodeDeadline, nodeSleep, refusedBeforeSending, writeStderrLine } from './node-ports.ts';

export * from '@mcp-resilience/client';
export { EVENT_CHANNEL, publishEvent } from './diagnostics.ts';
export { nodeDeadline, nodeSleep, refusedBeforeSending } from './node-ports.ts';

/**
 * Node's facts, the one object this adapter fills the engine's options from: `unref()`ed timers,
 * a refused connection known as not sent, `log: true` to stderr, every event on the
 * `diagnostics_channel` {@link EVENT_CHANNEL}.
 *
 * @example
 * const fetch = engineFetch(withRuntimeDefaults({ log: true }, nodeRuntime)); // what createResilientFetch does
 */
export const nodeRuntime: AdapterRuntime = Object.freeze({
  ...DEFAULT_RUNTIME,
  sleep: nodeSleep,
  deadline: nodeDeadline,
  notSent: refusedBeforeSending,
  writeLine: writeStderrLine,
  sinks: [publishEvent],
});

/**
 * `createResilientFetch` of `@mcp-resilience/client` with Node's ports. Pass it as the `fetch`
 * of the SDK's `StreamableHTTPClientTransport`; your `onEvent` still gets every event.
 *
 * @example
 * const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: createResilientFetch({ log: true }) });
 * await new Client({ name: 'app', version: '1.0.0' }).connect(transport);
 */
export function createResilientFetch(options: ResilientFetchOptions = {}): ResilientFetch {
  return createEngineFetch(withRuntimeDefaults(options, nodeRuntime));
}

/**
 * `connect` of `@mcp-resilience/client` with Node's ports: a connected official SDK 1.x
 * `Client` whose transport goes through the engine.
 *
 * @example
 * const client = await connect('http://127.0.0.1:3000/mcp', { clientInfo: { name: 'app', version: '1.0.0' }, log: true });
 * const tools = await client.listTools();
 * await client.close();
 */
export function connect(url: string | URL, options: ConnectOptions = {}): Promise<Client> {
  return connectEngine(url, withRuntimeDefaults(options, nodeRuntime));
}

/**
 * The engine with Node's ports as an SDK 2.x `Middleware` (`(next) => fetch`), to compose with
 * the SDK's own: the engine's requests go through the middleware listed before it.
 *
 * @example
 * import { applyMiddlewares, withOAuth } from '@modelcontextprotocol/client';
 * const fetch = applyMiddlewares(withOAuth(provider, url), resilienceMiddleware({ log: true }))(globalThis.fetch);
 */
export const resilienceMiddleware: (options?: ResilientFetchOptions) => ResilienceMiddleware = middlewareOf(createResilientFetch);
