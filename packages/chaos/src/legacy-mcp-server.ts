import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { BackendContext } from './backend.ts';
import { registerJobTool } from './job-tool.ts';
import { RESOURCE_URI } from './resource.ts';
import { add, echo, record, slow, TOOL_ANNOTATIONS } from './tools.ts';

const textResult = (text: string) => ({ content: [{ type: 'text' as const, text }] });

/**
 * One session's MCP server (official SDK 1.x): the chaos tools (`job` with the SDK's task
 * support, on the server's shared task store), the `chaos://counter` resource with
 * subscriptions (a change notifies subscribers), and logging. Returns the server and a
 * function that detaches it from the resource when the session ends.
 *
 * @example
 * const { server, detach } = createLegacyMcpServer(context);
 * await server.connect(transport);
 */
export function createLegacyMcpServer(context: BackendContext): { server: McpServer; detach: () => void } {
  const server = new McpServer(
    { name: 'mcp-chaos', version: '0.0.0' },
    {
      capabilities: {
        logging: {}, resources: { subscribe: true, listChanged: false },
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      taskStore: context.tasks.store,
    },
  );
  server.registerTool('echo', { description: 'Returns its text.', inputSchema: { text: z.string() }, annotations: TOOL_ANNOTATIONS.echo },
    async ({ text }) => textResult(echo(text)));
  server.registerTool('add', { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() }, annotations: TOOL_ANNOTATIONS.add },
    async ({ a, b }) => textResult(add(a, b)));
  server.registerTool('record', {
    description: 'Counts one execution under key in the execution ledger (not idempotent).',
    inputSchema: { key: z.string() }, annotations: TOOL_ANNOTATIONS.record,
  }, async ({ key }) => textResult(record(context.ledger, key)));
  server.registerTool('slow', {
    description: 'Takes ms milliseconds, reporting progress steps times.',
    inputSchema: { ms: z.number(), steps: z.number().optional() }, annotations: TOOL_ANNOTATIONS.slow,
  }, async ({ ms, steps }, extra) => {
    const progressToken = extra._meta?.progressToken;
    const report = async (progress: number, total: number) => {
      if (progressToken === undefined) return;
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total } });
    };
    return textResult(await slow(ms, steps ?? 1, report, extra.signal, context.clock));
  });
  registerJobTool(server, context);
  server.registerResource('counter', RESOURCE_URI, { mimeType: 'text/plain', description: 'Changed on demand by the control API.' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: context.resource.text }] }));

  const subscribed = new Set<string>();
  server.server.setRequestHandler(SubscribeRequestSchema, async (request) => (subscribed.add(request.params.uri), {}));
  server.server.setRequestHandler(UnsubscribeRequestSchema, async (request) => (subscribed.delete(request.params.uri), {}));
  const detach = context.resource.onChange(() => {
    if (subscribed.has(RESOURCE_URI)) server.server.sendResourceUpdated({ uri: RESOURCE_URI }).catch(() => {});
  });
  return { server, detach };
}
