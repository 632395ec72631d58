/**
 * The official TypeScript SDK 1.x server wired with ONE transport for the whole process, as
 * many tutorials write it: one `McpServer`, one sessionful `StreamableHTTPServerTransport`,
 * connected once at start-up, every verb of `/mcp` handed to it (Express through the SDK's
 * `createMcpExpressApp`). The transport serves a single session; after a restart it has
 * none and answers every request 400 "Bad Request: Server not initialized".
 *
 * @example
 * // PORT=3000 node dist/servers/sdk1-one-transport.js
 *
 * @module
 */
import { randomUUID } from 'node:crypto';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod/v4';
import { portFromEnv } from './port.ts';

const server = new McpServer({ name: 'sdk1-one-transport', version: '1.0.0' });
server.registerTool('echo', { description: 'Echoes its message', inputSchema: { message: z.string() } }, async ({ message }) => ({
  content: [{ type: 'text', text: message }],
}));

const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
await server.connect(transport);

const app = createMcpExpressApp();
app.all('/mcp', (req, res) => transport.handleRequest(req, res, req.body));
app.listen(portFromEnv(), '127.0.0.1');
