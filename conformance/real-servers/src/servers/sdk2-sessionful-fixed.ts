/**
 * `sdk2-sessionful.ts` (the SDK 2.x guide's session map) fixed through `perSessionHandler` of
 * `@mcp-resilience/chaos/server-kit`: the same `NodeStreamableHTTPServerTransport` per session,
 * and an id the process does not hold answered 404 with the request's id (the guide's route
 * answers `"id": null`) and the seed's `data`, `server_uptime_seconds` among it.
 *
 * @example
 * // PORT=3000 node dist/servers/sdk2-sessionful-fixed.js
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { perSessionHandler } from '@mcp-resilience/chaos/server-kit';
import { createMcpExpressApp } from '@modelcontextprotocol/express';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { portFromEnv } from './port.ts';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'sdk2-sessionful-fixed', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its message', inputSchema: z.object({ message: z.string() }) }, async ({ message }) => ({
    content: [{ type: 'text', text: message }],
  }));
  return server;
}

const handle = perSessionHandler(async (register) => {
  const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: register });
  await buildServer().connect(transport);
  return transport;
});

const app = createMcpExpressApp();
app.all('/mcp', (req, res) => void handle(req, res, req.body));
app.listen(portFromEnv(), '127.0.0.1');
