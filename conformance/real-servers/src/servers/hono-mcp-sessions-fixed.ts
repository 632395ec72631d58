/**
 * `hono-mcp.ts` with sessions (`HONO_MCP_SESSIONS=true`) fixed: its one `StreamableHTTPTransport`
 * for the process replaced by one per session in a map (each with an `McpServer` of its own), and
 * an id the process does not hold answered with `sessionGone` of `@mcp-resilience/chaos/server-kit`
 * (404 with the request's id), where the one transport answered 400 "Server already initialized"
 * to a second client and "Server not initialized" after a restart. And one thing the one transport
 * hid (no second session ever got that far): `@hono/mcp` 0.3.2 answers an unsupported
 * `MCP-Protocol-Version` with HTTP 404, which a client takes for "session gone"; the route answers
 * it 400 before the transport sees it.
 *
 * @example
 * // PORT=3000 node dist/servers/hono-mcp-sessions-fixed.js
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { StreamableHTTPTransport } from '@hono/mcp';
import { serve } from '@hono/node-server';
import { sessionGone } from '@mcp-resilience/chaos/server-kit';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { Hono } from 'hono';
import * as z from 'zod/v4';
import { portFromEnv } from './port.ts';

function buildServer(): McpServer {
  const server = new McpServer({ name: 'hono-mcp-sessions-fixed', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its message', inputSchema: { message: z.string() } }, async ({ message }) => ({
    content: [{ type: 'text', text: message }],
  }));
  return server;
}

const sessions = new Map<string, StreamableHTTPTransport>();
const app = new Hono();

app.all('/mcp', async (c) => {
  const sessionId = c.req.header('mcp-session-id');
  const body: unknown = c.req.method === 'POST' ? await c.req.json().catch(() => undefined) : undefined;
  const version = c.req.header('mcp-protocol-version');
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return c.json({ jsonrpc: '2.0', error: { code: -32000, message: `Bad Request: Unsupported protocol version: ${version}` }, id: (body as { id?: unknown } | undefined)?.id ?? null }, 400);
  }
  if (sessionId !== undefined) {
    const transport = sessions.get(sessionId);
    if (transport) return transport.handleRequest(c, body);
    const gone = sessionGone(body);
    return new Response(gone.body, { status: gone.status, headers: gone.headers });
  }
  if ((body as { method?: unknown } | undefined)?.method !== 'initialize') {
    return c.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' }, id: (body as { id?: unknown } | undefined)?.id ?? null }, 400);
  }
  const transport: StreamableHTTPTransport = new StreamableHTTPTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => void sessions.set(id, transport),
  });
  await buildServer().connect(transport);
  const closed = transport.onclose;
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
    closed?.();
  };
  return transport.handleRequest(c, body);
});

serve({ fetch: app.fetch, port: portFromEnv(), hostname: '127.0.0.1' });
