/**
 * `@modelcontextprotocol/server-everything`'s Streamable HTTP entry (`dist/transports/streamableHttp.js`)
 * fixed: the same server (its `createServer()`, a transport per session), but an id the process
 * does not hold is answered 404 with the request's id (through `perSessionHandler` of
 * `@mcp-resilience/chaos/server-kit`), where its entry answers 400 "Bad Request: No valid session
 * ID provided" on POST, GET and DELETE. Binds 127.0.0.1.
 *
 * @example
 * // PORT=3000 node dist/servers/server-everything-fixed.js
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { perSessionHandler } from '@mcp-resilience/chaos/server-kit';
// @ts-expect-error: server-everything ships no declarations for its modules (it is a CLI).
import { createServer } from '@modelcontextprotocol/server-everything/dist/server/index.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { portFromEnv } from './port.ts';

const create = createServer as () => { server: McpServer; cleanup: (sessionId?: string) => void };

const handle = perSessionHandler(async (register) => {
  const { server, cleanup } = create();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: register });
  server.server.onclose = () => cleanup(transport.sessionId);
  await server.connect(transport);
  return transport;
});

const app = createMcpExpressApp();
app.all('/mcp', (req, res) => void handle(req, res, req.body));
app.listen(portFromEnv(), '127.0.0.1');
