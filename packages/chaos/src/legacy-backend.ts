import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Backend, BackendContext } from './backend.ts';
import { BoundedEventStore } from './event-store.ts';
import { createLegacyMcpServer } from './legacy-mcp-server.ts';

interface Session {
  readonly transport: StreamableHTTPServerTransport;
  readonly close: () => Promise<void>;
}

function reply(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * The official SDK's stateful Streamable HTTP server (1.x): a session id per `initialize`,
 * response streams with event ids (resumable with `Last-Event-ID`), a standalone GET stream.
 * `onSessionStarted` tells the fault layer about each new session.
 *
 * @example
 * const backend = createLegacyBackend({ ledger, resource, tasks, clock: REAL_CLOCK, onSessionStarted: (id) => registry.add(id) });
 */
export function createLegacyBackend(context: BackendContext & { onSessionStarted(id: string): void; jsonResponses?: boolean }): Backend {
  const sessions = new Map<string, Session>();

  async function open(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const { server, detach } = createLegacyMcpServer(context);
    const close = async () => (detach(), await server.close());
    let started = false;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new BoundedEventStore(),
      enableJsonResponse: context.jsonResponses === true,
      onsessioninitialized: (id) => {
        started = true;
        sessions.set(id, { transport, close });
        context.onSessionStarted(id);
      },
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
    if (!started) await close(); // a refused initialize leaves nothing behind
  }

  return {
    mode: 'legacy',
    async handle(req, res, body) {
      const id = req.headers['mcp-session-id'];
      const sessionId = Array.isArray(id) ? id[0] : id;
      if (sessionId === undefined) {
        if (req.method === 'POST' && isInitializeRequest(body)) return open(req, res, body);
        return reply(res, 400, -32000, 'Bad Request: No valid session ID provided');
      }
      const session = sessions.get(sessionId);
      if (!session) return reply(res, 404, -32001, 'Session not found');
      await session.transport.handleRequest(req, res, body);
    },
    async dropSession(sessionId) {
      const session = sessions.get(sessionId);
      sessions.delete(sessionId);
      await session?.close();
    },
    async dropAll() {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(all.map((s) => s.close()));
    },
    async close() {
      await this.dropAll();
    },
  };
}
