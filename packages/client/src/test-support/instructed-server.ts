import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { perSessionHandler } from '@mcp-resilience/chaos/server-kit';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { listenOnLoopback } from './relay.ts';

/** One request as it reached the server. */
export interface WireEntry {
  readonly httpMethod: string;
  readonly rpcMethod?: string;
  readonly sessionId?: string;
  /** The `clientInfo` and `capabilities` of an `initialize`. */
  readonly clientInfo?: unknown;
  readonly capabilities?: unknown;
}

export interface InstructedServer {
  readonly url: string;
  /** Every request, in order. */
  readonly log: readonly WireEntry[];
  /** Standalone GET streams open now, by session id. */
  openStreams(sessionId: string): number;
  /** Sends `notifications/message` (`data: text`) to every session, outside any request: on its GET stream. */
  notifyAll(text: string): Promise<void>;
  /** Ends every session on the server (as an eviction does): their ids are answered 404 from now on. */
  evictAll(): Promise<void>;
  stop(): Promise<void>;
}

export const INSTRUCTIONS = 'Call hello to be greeted.';
export const SERVER_INFO = { name: 'instructed', version: '4.5.6' } as const;

/**
 * A real MCP server of the official SDK 1.x on 127.0.0.1 that gives `instructions`, logs, and
 * keeps one transport per session (chaos's server-kit), with a wire log of every request.
 *
 * @example
 * const server = await startInstructedServer();
 * await server.notifyAll('hello'); // reaches each client's GET stream
 */
export async function startInstructedServer(): Promise<InstructedServer> {
  const log: WireEntry[] = [];
  const servers = new Map<string, McpServer>();
  const transports = new Set<StreamableHTTPServerTransport>();
  const streams = new Map<string, number>();
  const handle = perSessionHandler(async (register) => {
    const server = new McpServer(SERVER_INFO, { capabilities: { logging: {} }, instructions: INSTRUCTIONS });
    server.registerTool('hello', { description: 'Says hello.' }, async () => ({ content: [{ type: 'text' as const, text: 'hello' }] }));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => (servers.set(id, server), register(id)),
    });
    transports.add(transport);
    await server.connect(transport);
    return transport;
  });
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      let text = '';
      for await (const chunk of req) text += String(chunk);
      const body = text ? (JSON.parse(text) as { method?: string; params?: { clientInfo?: unknown; capabilities?: unknown } }) : undefined;
      const header = req.headers['mcp-session-id'];
      const sessionId = typeof header === 'string' ? header : undefined;
      log.push({
        httpMethod: req.method!, ...(body?.method ? { rpcMethod: body.method } : {}), ...(sessionId ? { sessionId } : {}),
        ...(body?.method === 'initialize' ? { clientInfo: body.params?.clientInfo, capabilities: body.params?.capabilities } : {}),
      });
      if (req.method === 'GET' && sessionId) {
        streams.set(sessionId, (streams.get(sessionId) ?? 0) + 1);
        res.on('close', () => streams.set(sessionId, streams.get(sessionId)! - 1));
      }
      await handle(req, res, body);
    })().catch(() => res.headersSent || res.writeHead(500).end());
  });
  const listening = await listenOnLoopback(http);
  const url = `http://127.0.0.1:${listening.port}/mcp`;
  return {
    url,
    log,
    openStreams: (sessionId) => streams.get(sessionId) ?? 0,
    notifyAll: async (text) => void (await Promise.all([...servers.values()].map((server) => server.sendLoggingMessage({ level: 'info', data: text })))),
    evictAll: async () => {
      servers.clear();
      await Promise.all([...transports].map((transport) => transport.close()));
      transports.clear();
    },
    stop: async () => {
      await Promise.all([...transports].map((transport) => transport.close()));
      await listening.stop();
    },
  };
}
