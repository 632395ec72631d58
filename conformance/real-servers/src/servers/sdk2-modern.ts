/**
 * The official TypeScript SDK 2.x server as its guide "Serve with Express" mounts it:
 * `toNodeHandler(createMcpHandler(factory))` on `/mcp` of `createMcpExpressApp()`. It serves
 * 2026-07-28 from a fresh `McpServer` per request (no sessions, no `initialize`) and, by
 * default, 2025-era traffic through its stateless fallback.
 *
 * @example
 * // PORT=3000 node dist/servers/sdk2-modern.js
 *
 * @module
 */
import { createMcpExpressApp } from '@modelcontextprotocol/express';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { portFromEnv } from './port.ts';

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: 'sdk2-modern', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its message', inputSchema: z.object({ message: z.string() }) }, async ({ message }) => ({
    content: [{ type: 'text', text: message }],
  }));
  return server;
});

const app = createMcpExpressApp();
const node = toNodeHandler(handler);
app.all('/mcp', (req, res) => void node(req, res, req.body));
app.listen(portFromEnv(), '127.0.0.1');
