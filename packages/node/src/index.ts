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
  connect as connectEngine, createResilientFetch as createEngineFetch, type ConnectOptions, type ResilientFetch, type ResilientFetchOptions,
} from '@mcp-resilience/client';
import { withRuntimeDefaults } from '@mcp-resilience/client/adapter';
import { publishEvent } from './diagnostics.ts';
import { nodeDeadline, nodeSleep, refusedBeforeSending, writeStderrLine } from './node-ports.ts';

export * from '@mcp-resilience/client';
export { EVENT_CHANNEL, publishEvent } from './diagnostics.ts';
export { nodeDeadline, nodeSleep, refusedBeforeSending } from './node-ports.ts';

const NODE = { sleep: nodeSleep, deadline: nodeDeadline, notSent: refusedBeforeSending, writeLine: writeStderrLine, sinks: [publishEvent] };

/**
 * `createResilientFetch` of `@mcp-resilience/client` with Node's ports. Pass it as the `fetch`
 * of the SDK's `StreamableHTTPClientTransport`; your `onEvent` still gets every event.
 *
 * @example
 * const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: createResilientFetch({ log: true }) });
 * await new Client({ name: 'app', version: '1.0.0' }).connect(transport);
 */
export function createResilientFetch(options: ResilientFetchOptions = {}): ResilientFetch {
  return createEngineFetch(withRuntimeDefaults(options, NODE));
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
  return connectEngine(url, withRuntimeDefaults(options, NODE));
}
