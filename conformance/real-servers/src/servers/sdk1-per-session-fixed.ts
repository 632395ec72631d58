/**
 * The official TypeScript SDK 1.x server wired as its shipped example `simpleStreamableHttp`
 * (a `StreamableHTTPServerTransport` per session in a map, an unknown session id answered 404
 * `-32001` "Session not found"), with the one change `mcp-chaos check --server` asks for: the
 * 404's JSON-RPC error carries the request's id, not `null` (JSON-RPC 2.0 sends `null` only
 * when the id cannot be read). The example's line, and this one:
 *
 *     res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
 *     res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: req.body?.id ?? null });
 *
 * @example
 * // PORT=3000 node dist/servers/sdk1-per-session-fixed.js
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import { portFromEnv } from './port.ts';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'sdk1-per-session-fixed', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its message', inputSchema: { message: z.string() } }, async ({ message }) => ({
    content: [{ type: 'text', text: message }],
  }));
  return server;
}

const transports = new Map<string, StreamableHTTPServerTransport>();

async function handle(req: Request, res: Response): Promise<void> {
  const sessionId = req.headers['mcp-session-id'];
  const transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
  if (transport) return transport.handleRequest(req, res, req.body);
  if (typeof sessionId === 'string') {
    // The fix: the request's id, which JSON-RPC 2.0 echoes whenever it can be read.
    res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: (req.body as { id?: unknown } | undefined)?.id ?? null });
    return;
  }
  if (req.method !== 'POST' || !isInitializeRequest(req.body)) {
    res.status(400).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
    return;
  }
  const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => void transports.set(id, created),
  });
  created.onclose = () => void (created.sessionId && transports.delete(created.sessionId));
  await buildServer().connect(created);
  await created.handleRequest(req, res, req.body);
}

const app = createMcpExpressApp();
app.all('/mcp', (req, res) => void handle(req, res));
app.listen(portFromEnv(), '127.0.0.1');
