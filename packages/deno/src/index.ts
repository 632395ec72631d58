/**
 * @mcp-resilience/deno — MCP clients that survive session churn, on Deno: the engine of
 * `@mcp-resilience/client` with Deno's ports. Backoff timers and deadlines are unref'd
 * (`Deno.unrefTimer`: a pending retry never keeps the process alive), a refused connection is
 * known as such (nothing was sent, so it is retried), a host `--allow-net` does not cover ends
 * the call at once with `NOT_PERMITTED` naming the flag (nothing was sent, and a retry cannot
 * help), `log: true` prints one line per event to stderr, and {@link KvSessionStore} keeps
 * sessions in `Deno.Kv` when asked.
 *
 * @example
 * import { connect } from 'jsr:@mcp-resilience/deno';
 * const client = await connect('http://127.0.0.1:3000/mcp', { log: true }); // deno run --allow-net=127.0.0.1:3000
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
import { denoDeadline, denoNotSent, denoSleep, writeStderrLine } from './deno-ports.ts';

export * from '@mcp-resilience/client';
export { denoDeadline, denoNotSent, denoSleep } from './deno-ports.ts';
export { KV_PREFIX, KvSessionStore } from './kv-session-store.ts';
export type { DenoKv } from './deno-api.ts';

/**
 * Deno's facts, the one object this adapter fills the engine's options from: unref'd timers
 * (`Deno.unrefTimer`), a refused connection known as not sent and a missing `--allow-net` as
 * blocked, `log: true` to stderr.
 *
 * @example
 * const fetch = engineFetch(withRuntimeDefaults({ log: true }, denoRuntime)); // what createResilientFetch does
 */
export const denoRuntime: AdapterRuntime = Object.freeze({
  ...DEFAULT_RUNTIME,
  sleep: denoSleep,
  deadline: denoDeadline,
  notSent: denoNotSent,
  writeLine: writeStderrLine,
});

/**
 * `createResilientFetch` of `@mcp-resilience/client` with Deno's ports. Pass it as the `fetch`
 * of the SDK's `StreamableHTTPClientTransport`; your `onEvent` gets every event.
 *
 * @example
 * const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: createResilientFetch({ log: true }) });
 * await new Client({ name: 'app', version: '1.0.0' }).connect(transport);
 */
export function createResilientFetch(options: ResilientFetchOptions = {}): ResilientFetch {
  return createEngineFetch(withRuntimeDefaults(options, denoRuntime));
}

/**
 * `connect` of `@mcp-resilience/client` with Deno's ports: a connected official SDK 1.x
 * `Client` whose transport goes through the engine.
 *
 * @example
 * const client = await connect('http://127.0.0.1:3000/mcp', { clientInfo: { name: 'app', version: '1.0.0' } });
 * const tools = await client.listTools();
 * await client.close();
 */
export function connect(url: string | URL, options: ConnectOptions = {}): Promise<Client> {
  return connectEngine(url, withRuntimeDefaults(options, denoRuntime));
}

/**
 * The engine with Deno's ports as an SDK 2.x `Middleware` (`(next) => fetch`), to compose with
 * the SDK's own: the engine's requests go through the middleware listed before it.
 *
 * @example
 * import { applyMiddlewares, withLogging } from 'npm:@modelcontextprotocol/client';
 * const fetch = applyMiddlewares(withLogging(), resilienceMiddleware())(globalThis.fetch);
 */
export const resilienceMiddleware: (options?: ResilientFetchOptions) => ResilienceMiddleware = middlewareOf(createResilientFetch);
