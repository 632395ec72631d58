/**
 * The official TypeScript SDK 2.x server (`@modelcontextprotocol/server`) sessionful, as its
 * guide "Sessions, state, and scaling" wires it: Express from `@modelcontextprotocol/express`,
 * one `NodeStreamableHTTPServerTransport` per session kept in a map, an unknown session id
 * answered 404 `-32001` "Session not found" by the route itself.
 *
 * @example
 * // PORT=3000 node dist/servers/sdk2-sessionful.js
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { createMcpExpressApp } from '@modelcontextprotocol/express';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest, McpServer } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import * as z from 'zod/v4';
import { portFromEnv } from './port.ts';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'sdk2-sessionful', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its message', inputSchema: z.object({ message: z.string() }) }, async ({ message }) => ({
    content: [{ type: 'text', text: message }],
  }));
  return server;
}

const sessions = new Map<string, NodeStreamableHTTPServerTransport>();

const route = async (req: Request, res: Response) => {
  const sessionId = req.headers['mcp-session-id'] as string | undefined;
  if (sessionId && sessions.has(sessionId)) {
    await sessions.get(sessionId)!.handleRequest(req, res, req.body);
    return;
  }
  if (!sessionId && isInitializeRequest(req.body)) {
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await buildServer().connect(transport);
    await transport.handleRequest(req, res, req.body);
    return;
  }
  if (sessionId) {
    // Unknown session id: the client should start a new session.
    res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
    return;
  }
  res.status(400).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: Session ID required' }, id: null });
};

const app = createMcpExpressApp();
app.post('/mcp', route);
app.get('/mcp', route);
app.delete('/mcp', route);
app.listen(portFromEnv(), '127.0.0.1');
