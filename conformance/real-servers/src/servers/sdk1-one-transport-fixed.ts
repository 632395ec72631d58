/**
 * `sdk1-one-transport.ts` fixed: its one process-wide `StreamableHTTPServerTransport` replaced by
 * one per session, through `perSessionHandler` of `@mcp-resilience/chaos/server-kit` (a map of
 * transports; an id the process does not hold answered 404 with the request's id and the seed's
 * `data`). Every client gets a session of its own, and after a restart an old id is answered
 * 404, not 400 "Server not initialized".
 *
 * @example
 * // PORT=3000 node dist/servers/sdk1-one-transport-fixed.js
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { perSessionHandler } from '@mcp-resilience/chaos/server-kit';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod/v4';
import { portFromEnv } from './port.ts';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'sdk1-one-transport-fixed', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its message', inputSchema: { message: z.string() } }, async ({ message }) => ({
    content: [{ type: 'text', text: message }],
  }));
  return server;
}

const handle = perSessionHandler(async (register) => {
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: register });
  await buildServer().connect(transport);
  return transport;
});

const app = createMcpExpressApp();
app.all('/mcp', (req, res) => void handle(req, res, req.body));
app.listen(portFromEnv(), '127.0.0.1');
