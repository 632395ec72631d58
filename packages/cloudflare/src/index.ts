/**
 * @mcp-resilience/cloudflare — MCP clients that survive session churn, on Cloudflare Workers.
 * A Worker cannot keep an SDK client across requests (`Cannot perform I/O on behalf of a
 * different request`), so the session lives in a Durable Object ({@link McpSessionStore}) and
 * {@link connect} builds the engine for each request around it: request 2 goes on with
 * request 1's session without an `initialize`, and after a loss the stored `initialize` opens a
 * new one. Background work goes to `ctx.waitUntil`, the SDK's Workers-safe JSON-schema
 * validator is the default, the engine's own requests fit the request's time budget, and a
 * failed connection ("Network connection lost.") counts as "maybe sent". No `nodejs_compat`.
 * For agents and other long-lived use, {@link durableClient} holds one client inside a
 * Durable Object for all of that object's requests.
 *
 * @example
 * import { connect } from '@mcp-resilience/cloudflare';
 * export { McpSessionStore } from '@mcp-resilience/cloudflare';
 * export default {
 *   async fetch(request, env, ctx) {
 *     const client = await connect('https://mcp.example.com/mcp', { sessions: env.MCP_SESSIONS, sessionName: await userIdOf(request), ctx });
 *     return Response.json(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }));
 *   },
 * };
 *
 * @module
 */
export * from '@mcp-resilience/client';
export { connect, createResilientFetch, resilienceMiddleware, type WorkersConnectOptions, type WorkersFetchOptions } from './connect.ts';
export { DEFAULT_BUDGET_MS, workersRuntime, type WorkersRequest } from './workers-runtime.ts';
export { durableClient, type DurableClient, type DurableClientOptions } from './durable-client.ts';
export { durableSessionStore, type SessionStoreNamespace } from './durable-session-store.ts';
export { McpSessionStore } from './session-store-object.ts';
export { storageSessionStore } from './storage-session-store.ts';
export { backgroundOn, budgetDeadline, notSentOnWorkers, type WaitUntilContext } from './workers-ports.ts';
export { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
