/**
 * For MCP server authors: the session contract `mcp-chaos check --server` scores, in a few
 * imports. `sessionGone` is the answer to a request carrying a session id the server does not
 * hold (404, a JSON-RPC error carrying the request's id, the seed's `data`); `perSessionHandler`
 * keeps a transport per session (the official SDKs' Node transports, 1.x and 2.x) and answers
 * every id it does not hold with it, so one process serves any number of sessions and a restart
 * is told as a 404.
 *
 * @example
 * import { perSessionHandler } from '@mcp-resilience/chaos/server-kit';
 * const handle = perSessionHandler(async (register) => {
 *   const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: register });
 *   await buildServer().connect(transport);
 *   return transport;
 * });
 * app.all('/mcp', (req, res) => handle(req, res, req.body));
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sessionGoneResponse, type CannedResponse } from './dialect-responses.ts';

/**
 * The id of a JSON-RPC request body (a string or a number), or `null` where none can be read (no
 * body, a notification, a batch: JSON-RPC 2.0 answers `null` only then).
 *
 * @example
 * requestIdOf({ jsonrpc: '2.0', id: 7, method: 'tools/list' }); // 7
 * requestIdOf(undefined); // null
 */
export function requestIdOf(body: unknown): string | number | null {
  const id = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * The answer to a request carrying an `Mcp-Session-Id` the server does not hold (never issued,
 * ended by DELETE, lost to a restart): HTTP 404 with a JSON-RPC error that carries the request's
 * id, code `-32000` and the seed's `data` (`reason: "session_not_found"`, `action:
 * "reinitialize_and_replay_once"`, `server_uptime_seconds`, from which a client tells a restart
 * from an expiry). `uptimeSeconds` defaults to the process's, in whole seconds.
 *
 * @example
 * const gone = sessionGone({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
 * res.writeHead(gone.status, gone.headers).end(gone.body); // 404 {"jsonrpc":"2.0","error":{…},"id":7}
 */
export function sessionGone(body: unknown, uptimeSeconds = Math.floor(process.uptime())): CannedResponse {
  return sessionGoneResponse('amdahl', { requestId: requestIdOf(body), uptimeSeconds });
}

/**
 * Writes {@link sessionGone} to a Node response (Express's `res` is one).
 *
 * @example
 * if (sessionId && !sessions.has(sessionId)) return sendSessionGone(res, req.body);
 */
export function sendSessionGone(res: ServerResponse, body: unknown): void {
  const gone = sessionGone(body);
  res.writeHead(gone.status, gone.headers).end(gone.body);
}

/** What {@link perSessionHandler} needs of a transport: the official SDKs' Node transports (1.x `StreamableHTTPServerTransport`, 2.x `NodeStreamableHTTPServerTransport`) have it. */
export interface SessionTransport {
  readonly sessionId?: string | undefined;
  onclose?: (() => void) | undefined;
  handleRequest(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void>;
}

/** A Node request handler: the body as parsed already (Express's `req.body`), or `undefined`. */
export type SessionRequestHandler = (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown) => Promise<void>;

const isInitialize = (body: unknown) => typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize';

function badRequest(res: ServerResponse, body: unknown): void {
  res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({
    jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' }, id: requestIdOf(body),
  }));
}

/**
 * A transport per session, in a map: a request carrying a session id goes to that session's
 * transport, or is answered {@link sessionGone} (404 with the request's id) when the process does
 * not hold it; an `initialize` without one opens a new session (`open` makes the transport and
 * connects a server to it, and gives `register` to the transport as its `onsessioninitialized`);
 * anything else without a session id is answered 400. A session leaves the map when its
 * transport closes (a DELETE). Where one transport serves the whole process, only one session
 * can ever be opened and a restart answers 400 "Server not initialized": this is the fix.
 *
 * @example
 * import { randomUUID } from 'node:crypto';
 * import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
 * import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
 * import { perSessionHandler } from '@mcp-resilience/chaos/server-kit';
 *
 * const handle = perSessionHandler(async (register) => {
 *   const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: register });
 *   await buildServer().connect(transport); // a McpServer per session
 *   return transport;
 * });
 * app.all('/mcp', (req, res) => handle(req, res, req.body));
 */
export function perSessionHandler<T extends SessionTransport>(open: (register: (sessionId: string) => void) => Promise<T>): SessionRequestHandler {
  const sessions = new Map<string, T>();
  return async (req, res, parsedBody) => {
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const transport = sessions.get(sessionId);
      return transport ? transport.handleRequest(req, res, parsedBody) : sendSessionGone(res, parsedBody);
    }
    if (req.method !== 'POST' || !isInitialize(parsedBody)) return badRequest(res, parsedBody);
    let transport: T | undefined;
    let pending: string | undefined;
    transport = await open((id) => (transport ? void sessions.set(id, transport) : (pending = id)));
    if (pending !== undefined) sessions.set(pending, transport);
    const opened = transport;
    const closed = opened.onclose;
    opened.onclose = () => {
      if (opened.sessionId !== undefined && sessions.get(opened.sessionId) === opened) sessions.delete(opened.sessionId);
      closed?.();
    };
    await opened.handleRequest(req, res, parsedBody);
  };
}
