/**
 * The official TypeScript SDK 1.x server in stateless mode, as the SDK's own
 * `simpleStatelessStreamableHttp` example wires it (that example hard-codes port 3000, so it
 * is rewritten here with the port the test picks): a fresh `McpServer` and transport with
 * `sessionIdGenerator: undefined` per POST; GET and DELETE answered 405.
 *
 * @example
 * // PORT=3000 node dist/servers/sdk1-stateless.js
 *
 * @module
 */
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod/v4';
import { portFromEnv } from './port.ts';

function getServer(): McpServer {
  const server = new McpServer({ name: 'sdk1-stateless', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its message', inputSchema: { message: z.string() } }, async ({ message }) => ({
    content: [{ type: 'text', text: message }],
  }));
  return server;
}

const app = createMcpExpressApp();
app.post('/mcp', async (req, res) => {
  const server = getServer();
  try {
    const transport = new StreamableHTTPServerTransport({}); // the example's `sessionIdGenerator: undefined`
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
  } catch {
    if (!res.headersSent) res.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null });
  }
});
const notAllowed = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
app.get('/mcp', (_req, res) => void res.writeHead(405).end(notAllowed));
app.delete('/mcp', (_req, res) => void res.writeHead(405).end(notAllowed));
app.listen(portFromEnv(), '127.0.0.1');
