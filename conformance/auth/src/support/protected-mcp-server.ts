import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthMetadataRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import type { AuthorizationServer } from './authorization-server.ts';
import { listen } from './listen.ts';
import { bearerOf, watchedLog, type SessionStanding, type WireEntry } from './wire-log.ts';

/**
 * Which check a request meets first. `auth-first`: the SDK's `requireBearerAuth` in front of the
 * session lookup (an expired token is a 401 even on a dead session). `session-first`: a gateway
 * that routes by `Mcp-Session-Id` before the bearer check (a dead session is a 404 whatever the
 * token; only a request without a session id, `initialize`, meets the bearer check).
 */
export type CheckOrder = 'auth-first' | 'session-first';

/** What the MCP server answered, since the last reset. */
export interface ServerCounters {
  /** `initialize` requests answered 200. */
  initializeAccepted: number;
  /** `initialize` requests answered 401. */
  initializeRefused: number;
  /** 404s sent (a session id the server no longer has). */
  notFound: number;
}

/** A running protected MCP server and the test's hands on it. */
export interface ProtectedMcpServer {
  readonly order: CheckOrder;
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: string;
  readonly counters: Readonly<ServerCounters>;
  /** Every exchange since the last reset, in the order the answers went out (with the authorization server's token requests, when it logs to the same list). */
  readonly wire: readonly WireEntry[];
  /** The bearer token each `initialize` carried since the last reset, with its answer (`at-2 → 200`). */
  initializeTokens(): string[];
  /** The server ends every session (idle expiry, restart): their ids are answered 404 from now on. */
  dropSessions(): Promise<void>;
  /** The first exchange since the last reset that `matches`: at once if it is logged, else as soon as it is. */
  whenLogged(matches: (entry: WireEntry) => boolean): Promise<WireEntry>;
  /** Zeroes the counters and the wire log. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * Matches a client's standalone GET sent after its `notifications/initialized` (the SDKs open it
 * on their own once connected, and answered 405 here, it is never sent again): entries are to be
 * given in the order they were logged.
 *
 * @example
 * await server.whenLogged(standaloneGetAfterInitialized()); // nothing of the connection is still on its way
 */
export function standaloneGetAfterInitialized(): (entry: WireEntry) => boolean {
  let initialized = false;
  return (entry) => (initialized ||= entry.rpc === 'notifications/initialized') && entry.http === 'GET';
}

function zeroCounters(): ServerCounters {
  return { initializeAccepted: 0, initializeRefused: 0, notFound: 0 };
}

function newMcpServer(): McpServer {
  const server = new McpServer({ name: 'protected-echo', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its text', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text: `echo: ${text}` }],
  }));
  return server;
}

function rpcMethodOf(body: unknown): string | undefined {
  const first: unknown = Array.isArray(body) ? body[0] : body;
  if (first === null || typeof first !== 'object') return undefined;
  const method = (first as { method?: unknown }).method;
  return typeof method === 'string' ? method : 'response';
}

/** The SDK 1.x server's own "session gone" answer. */
function sessionNotFound(res: Response): void {
  res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
}

/**
 * Starts an SDK 1.x `McpServer` (a tool `echo`) behind OAuth on 127.0.0.1: one
 * `StreamableHTTPServerTransport` per session in a map, JSON answers, no standalone GET stream
 * (405), protected-resource metadata naming `authorizationServer`, and the bearer check placed
 * as `order` says.
 *
 * @example
 * const server = await startProtectedMcpServer('session-first', as, wire);
 * await server.dropSessions();
 * as.expireAccessTokens();           // session and token both gone after a pause
 * server.counters.initializeRefused; // 401s to initialize since the last reset
 */
export async function startProtectedMcpServer(order: CheckOrder, authorizationServer: AuthorizationServer, wire: WireEntry[] = []): Promise<ProtectedMcpServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const dead = new Set<string>();
  const counters = zeroCounters();
  const log = watchedLog(wire);
  let resourceUrl!: URL;

  const standing = (id: string | undefined): SessionStanding => (id === undefined ? 'none' : sessions.has(id) ? 'live' : dead.has(id) ? 'dead' : 'unknown');

  const record: RequestHandler = (req, res, next) => {
    const sessionId = req.header('mcp-session-id');
    const rpc = rpcMethodOf(req.body);
    const entry = { http: req.method, rpc, session: standing(sessionId), token: bearerOf(req.header('authorization')) };
    res.on('finish', () => {
      log.push({ ...entry, status: res.statusCode });
      if (res.statusCode === 404) counters.notFound += 1;
      if (rpc === 'initialize' && res.statusCode === 200) counters.initializeAccepted += 1;
      if (rpc === 'initialize' && res.statusCode === 401) counters.initializeRefused += 1;
    });
    next();
  };

  /** Routes by session: a live id to its transport, an unknown one to 404, none + initialize to a new session. */
  const routeBySession: RequestHandler = (req, res, next) => {
    const sessionId = req.header('mcp-session-id');
    if (sessionId !== undefined) {
      const transport = sessions.get(sessionId);
      if (!transport) return sessionNotFound(res);
      if (order === 'session-first') return next(); // the bearer check comes next, then serve()
      return void transport.handleRequest(req, res, req.body);
    }
    if (req.method !== 'POST') return void res.status(405).set('Allow', 'POST').end();
    if (!isInitializeRequest(req.body)) {
      return void res.status(400).json({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null });
    }
    return next();
  };

  const serve = async (req: Request, res: Response): Promise<void> => {
    const sessionId = req.header('mcp-session-id');
    const existing = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (sessionId !== undefined && !existing) return sessionNotFound(res);
    if (existing) return existing.handleRequest(req, res, req.body);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined && sessions.delete(transport.sessionId)) dead.add(transport.sessionId);
    };
    await newMcpServer().connect(transport);
    await transport.handleRequest(req, res, req.body);
  };

  const noStandaloneStream: RequestHandler = (req, res, next) =>
    req.method === 'GET' ? void res.status(405).set('Allow', 'POST, DELETE').end() : next();

  let bearer: RequestHandler | undefined;
  const bearerCheck: RequestHandler = (req, res, next) => {
    bearer ??= requireBearerAuth({
      verifier: authorizationServer.verifier,
      resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(resourceUrl),
    });
    return bearer(req, res, next);
  };

  let metadataRouter: RequestHandler | undefined;
  const app = express();
  app.use((req, res, next) => {
    metadataRouter ??= mcpAuthMetadataRouter({ oauthMetadata: authorizationServer.metadata, resourceServerUrl: resourceUrl });
    metadataRouter(req, res, next);
  });
  const chain: RequestHandler[] =
    order === 'auth-first'
      ? [express.json(), record, bearerCheck, noStandaloneStream, routeBySession, (req, res) => void serve(req, res)]
      : [express.json(), record, routeBySession, bearerCheck, noStandaloneStream, (req, res) => void serve(req, res)];
  app.all('/mcp', ...chain);

  const listening = await listen(app);
  resourceUrl = new URL(`${listening.origin}/mcp`);

  return {
    order,
    url: resourceUrl.href,
    counters,
    wire,
    initializeTokens: () => wire.filter((e) => e.rpc === 'initialize').map((e) => `${e.token} → ${e.status}`),
    dropSessions: async () => {
      const ended = [...sessions.entries()];
      sessions.clear();
      for (const [id, transport] of ended) {
        dead.add(id);
        await transport.close();
      }
    },
    whenLogged: log.whenLogged,
    reset: () => {
      Object.assign(counters, zeroCounters());
      wire.length = 0;
    },
    close: async () => {
      for (const transport of sessions.values()) await transport.close();
      sessions.clear();
      await listening.close();
    },
  };
}
