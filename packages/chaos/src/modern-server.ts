import { McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { BackendContext } from './backend.ts';
import type { ChaosClock } from './chaos-clock.ts';
import type { ExecutionLedger } from './ledger.ts';
import { RESOURCE_URI, type ChangeableResource } from './resource.ts';
import { TOOL_ANNOTATIONS, add, echo, record, slow } from './tools.ts';

/** The identity the modern backend reports (`_meta["io.modelcontextprotocol/serverInfo"]`). */
export const MODERN_SERVER_INFO = { name: 'mcp-chaos', version: '0.0.0' } as const;

type TextResult = { content: [{ type: 'text'; text: string }] };

const text = (value: string): TextResult => ({ content: [{ type: 'text', text: value }] });

/** Sends `notifications/progress` for the current request when it carried a progress token. */
function progressReporter(ctx: ServerContext): (done: number, total: number) => Promise<void> {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return async () => undefined;
  return (progress, total) => ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, progress, total } });
}

/** Logs one line about a tool call; the SDK sends it only when the request's envelope names a log level. */
async function logCall(ctx: ServerContext, tool: string, detail: string): Promise<void> {
  // Deprecated in 2026-07-28 (SEP-2577) but still served: filtered by `_meta["io.modelcontextprotocol/logLevel"]`.
  await ctx.mcpReq.log('info', `${tool}: ${detail}`, 'mcp-chaos');
}

function registerEcho(server: McpServer): void {
  const inputSchema = z.object({ text: z.string() });
  server.registerTool('echo', { description: 'Returns its text.', inputSchema, annotations: TOOL_ANNOTATIONS.echo }, async (args, ctx) => {
    await logCall(ctx, 'echo', args.text);
    return text(echo(args.text));
  });
}

function registerAdd(server: McpServer): void {
  const inputSchema = z.object({ a: z.number(), b: z.number() });
  server.registerTool('add', { description: 'Adds two numbers.', inputSchema, annotations: TOOL_ANNOTATIONS.add }, async (args, ctx) => {
    await logCall(ctx, 'add', `${args.a} + ${args.b}`);
    return text(add(args.a, args.b));
  });
}

function registerRecord(server: McpServer, ledger: ExecutionLedger): void {
  const inputSchema = z.object({ key: z.string() });
  const description = 'Counts one execution under key in the ledger (not idempotent).';
  server.registerTool('record', { description, inputSchema, annotations: TOOL_ANNOTATIONS.record }, async (args, ctx) => {
    const result = record(ledger, args.key);
    await logCall(ctx, 'record', result);
    return text(result);
  });
}

function registerSlow(server: McpServer, clock: ChaosClock): void {
  const inputSchema = z.object({ ms: z.number(), steps: z.number().optional() });
  const description = 'Waits ms milliseconds, reporting progress steps times.';
  server.registerTool('slow', { description, inputSchema, annotations: TOOL_ANNOTATIONS.slow }, async (args, ctx) => {
    await logCall(ctx, 'slow', `${args.ms} ms`);
    return text(await slow(args.ms, args.steps ?? 1, progressReporter(ctx), ctx.mcpReq.signal, clock));
  });
}

/** `job` without tasks (the newer SDK line serves none): a plain call, counted like `record`. */
function registerJob(server: McpServer, ledger: ExecutionLedger, clock: ChaosClock): void {
  const inputSchema = z.object({ key: z.string(), ms: z.number(), steps: z.number().optional(), pollMs: z.number().optional() });
  const description = 'Takes ms milliseconds, counting each run under key in the ledger (no task support on 2026-07-28 here).';
  server.registerTool('job', { description, inputSchema, annotations: TOOL_ANNOTATIONS.job }, async (args, ctx) => {
    const result = record(ledger, args.key);
    await slow(args.ms, args.steps ?? 1, progressReporter(ctx), ctx.mcpReq.signal, clock);
    return text(result);
  });
}

function registerCounter(server: McpServer, resource: ChangeableResource): void {
  const metadata = { description: 'A counter changed through the control API.', mimeType: 'text/plain' };
  server.registerResource('counter', RESOURCE_URI, metadata, (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: resource.text }],
  }));
}

/**
 * Builds the chaos server for one 2026-07-28 request: the SDK serves every request with a
 * fresh instance, so this is the `McpServerFactory` given to `createMcpHandler`. It offers the
 * tools of `tools.ts` (with their annotations), the `chaos://counter` resource, logging, and
 * resource subscriptions (served by the handler's `subscriptions/listen` router).
 *
 * @example
 * const handler = createMcpHandler(() => createModernServer(context), { legacy: 'reject' });
 */
export function createModernServer(context: BackendContext): McpServer {
  const server = new McpServer(
    { ...MODERN_SERVER_INFO },
    { capabilities: { logging: {}, resources: { subscribe: true } } },
  );
  registerEcho(server);
  registerAdd(server);
  registerRecord(server, context.ledger);
  registerSlow(server, context.clock);
  registerJob(server, context.ledger, context.clock);
  registerCounter(server, context.resource);
  return server;
}
