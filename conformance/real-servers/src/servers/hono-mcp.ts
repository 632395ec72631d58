/**
 * `@hono/mcp` as its README wires it: one `McpServer` (SDK 1.x), one `StreamableHTTPTransport`
 * for the process, connected on the first request, `app.all('/mcp')`; served on Node by
 * `@hono/node-server`. The README's transport takes no options (so no session ids);
 * `HONO_MCP_SESSIONS=true` gives it the SDK option `sessionIdGenerator`, which the README
 * says it accepts.
 *
 * @example
 * // PORT=3000 node dist/servers/hono-mcp.js
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { StreamableHTTPTransport } from '@hono/mcp';
import { serve } from '@hono/node-server';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Hono } from 'hono';
import * as z from 'zod/v4';
import { portFromEnv } from './port.ts';

const app = new Hono();
const mcpServer = new McpServer({ name: 'hono-mcp', version: '1.0.0' });
mcpServer.registerTool('echo', { description: 'Echoes its message', inputSchema: { message: z.string() } }, async ({ message }) => ({
  content: [{ type: 'text', text: message }],
}));

const transport = process.env.HONO_MCP_SESSIONS === 'true' ? new StreamableHTTPTransport({ sessionIdGenerator: () => randomUUID() }) : new StreamableHTTPTransport();

app.all('/mcp', async (c) => {
  if (!mcpServer.isConnected()) await mcpServer.connect(transport);
  return transport.handleRequest(c);
});

serve({ fetch: app.fetch, port: portFromEnv(), hostname: '127.0.0.1' });
