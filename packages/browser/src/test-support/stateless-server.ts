import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** What the server saw of one request: its HTTP and JSON-RPC method, whether it carried a session id, and its status. */
export interface SeenRequest {
  readonly httpMethod: string;
  readonly rpcMethod?: string;
  readonly sessionId: boolean;
  status?: number;
}

/** A server without sessions on the sessionful revisions, cross-origin ready: its URL, what it saw, how to stop it. */
export interface StatelessServer {
  readonly url: string;
  readonly seen: readonly SeenRequest[];
  close(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id',
};

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (text += chunk)).once('end', () => resolve(text)).once('error', reject);
  });
}

/**
 * The official SDK 1.x server in stateless mode, wired as its `simpleStatelessStreamableHttp`
 * example does (a fresh `McpServer` and transport with `sessionIdGenerator: undefined` per POST;
 * GET and DELETE answered 405), plus the CORS headers a page on another origin needs. It mints
 * no `Mcp-Session-Id`, so there is none to expose. On 127.0.0.1, a free port.
 *
 * @example
 * const server = await startStatelessServer();
 * await server.close();
 */
export async function startStatelessServer(): Promise<StatelessServer> {
  const seen: SeenRequest[] = [];
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    for (const [name, value] of Object.entries(CORS)) response.setHeader(name, value);
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    const text = request.method === 'POST' ? await readBody(request) : '';
    const body = text === '' ? undefined : (JSON.parse(text) as { method?: string });
    const entry: SeenRequest = { httpMethod: request.method!, ...(body?.method ? { rpcMethod: body.method } : {}), sessionId: 'mcp-session-id' in request.headers };
    seen.push(entry);
    response.once('finish', () => (entry.status = response.statusCode));
    if (request.method !== 'POST') {
      return void response.writeHead(405, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","error":{"code":-32000,"message":"Method not allowed."},"id":null}');
    }
    const server = new McpServer({ name: 'stateless', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Says it keeps no session' }, async () => ({ content: [{ type: 'text', text: 'no session kept' }] }));
    const transport = new StreamableHTTPServerTransport({}); // the example's `sessionIdGenerator: undefined`
    response.once('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  };
  const http = createServer((request, response) => void handle(request, response).catch(() => response.destroy()));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`,
    seen,
    close: () => new Promise<void>((resolve) => (http.closeAllConnections(), http.close(() => resolve()))),
  };
}
