import { dataField, type RpcError } from './json-rpc.ts';

/**
 * One way a server (or a client library) says "this session is gone". A row matches when
 * every field it sets matches; the fact that the request carried a session id on a sessionful
 * revision is checked by the classifier, never here.
 *
 * @example
 * const gateway: SessionGoneDialect = { name: 'my-gateway', status: 410, text: 'session expired', outcome: 'not-processed' };
 * createResilientFetch({ dialects: [gateway] }); // @mcp-resilience/client
 */
export interface SessionGoneDialect {
  readonly name: string;
  /** HTTP status. Absent: a JSON-RPC error surfaced by a client library, with no HTTP status. */
  readonly status?: number;
  /** JSON-RPC error code; `null`: the body must not be a JSON-RPC error (plain text, say). */
  readonly code?: number | null;
  /** The error message, matched exactly. */
  readonly message?: string;
  /** The error message's start, for messages that carry a suffix ("Session not found. Please…"). */
  readonly messagePrefix?: string;
  /** `error.data.reason`, matched exactly. */
  readonly reason?: string;
  /** A plain-text body, matched exactly after trimming. */
  readonly text?: string;
  /**
   * `not-processed`: the server rejected the request, so sending it again is safe.
   * `unknown`: the stream broke with the request in flight; it may have run.
   */
  readonly outcome: 'not-processed' | 'unknown';
  /**
   * Which servers or libraries speak it. Documentation only, never read: the built-in rows
   * carry it as a comment rather than at run time.
   */
  readonly spokenBy?: readonly string[];
}

/**
 * The known dialects, most specific first, ending in the spec's own rule (any 404). Sources:
 * `mcp-facts.md` §3 and the servers' code. Extra rows given to the classifier go before these.
 */
export const SESSION_GONE_DIALECTS: readonly SessionGoneDialect[] = [
  // The seed contract.
  { name: 'amdahl', status: 404, code: -32000, reason: 'session_not_found', outcome: 'not-processed' },
  // TypeScript SDK server, C# SDK, punkpeye/mcp-proxy. Measured (conformance/real-servers,
  // 2026-12-01), POST and GET: @modelcontextprotocol/sdk 1.32.2 (its example server, and its
  // transport's own check), @modelcontextprotocol/server 2.4.0 (the guide's session map),
  // fastmcp 4.20.16, mcp-proxy 6.7.19, mcp-framework 0.2.22.
  { name: 'typescript-sdk', status: 404, code: -32001, outcome: 'not-processed' },
  // Python SDK server, fastmcp, sparfenyuk/mcp-proxy.
  { name: 'python-sdk', status: 404, code: -32600, outcome: 'not-processed' },
  // Go SDK server.
  { name: 'go-sdk', status: 404, code: null, text: 'session not found', outcome: 'not-processed' },
  // TypeScript SDK express example, @modelcontextprotocol/server-everything. Measured
  // (conformance/real-servers, 2026-12-01) on server-everything 2026.8.31, POST and GET, for
  // unknown ids too: `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}`.
  { name: 'express-400', status: 400, code: -32000, message: 'Bad Request: No valid session ID provided', outcome: 'not-processed' },
  // Measured (conformance/real-servers, 2026-12-01): the official TypeScript SDK server
  // @modelcontextprotocol/sdk 1.32.2 wired with ONE StreamableHTTPServerTransport for the whole
  // process, and @hono/mcp 0.3.2 given `sessionIdGenerator` (the same transport code): after a
  // restart the transport has no session, so its "not initialized" check answers every request
  // `400 {"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}`
  // (POST and GET) before its session check runs. Message matched exactly, with status and code.
  { name: 'typescript-sdk-uninitialized', status: 400, code: -32000, message: 'Bad Request: Server not initialized', outcome: 'not-processed' },
  // Python SDK server, older releases.
  { name: 'python-sdk-400', status: 400, code: null, text: 'Bad Request: No valid session ID provided', outcome: 'not-processed' },
  // punkpeye/mcp-proxy (GET, DELETE).
  { name: 'mcp-proxy-400', status: 400, code: null, text: 'No active transport', outcome: 'not-processed' },
  // Any server following the transport spec.
  { name: 'spec-404', status: 404, outcome: 'not-processed' },
  // Spellings surfaced by client libraries rather than read off the wire:
  // clients relaying the seed contract; the TypeScript SDK client.
  { name: 'session-not-found', code: -32000, messagePrefix: 'Session not found', outcome: 'not-processed' },
  { name: 'connection-closed', code: -32000, message: 'Connection closed', outcome: 'unknown' },
];

/** What a dialect is matched against: the status (absent for a surfaced error) and the body. */
export interface DialectEvidence {
  readonly status?: number | undefined;
  readonly rpc?: RpcError | undefined;
  /** The body as text, when it was text. */
  readonly text?: string | undefined;
}

function matches(row: SessionGoneDialect, { status, rpc, text }: DialectEvidence): boolean {
  if (row.status !== status) return false;
  if (row.code === null ? rpc !== undefined : row.code !== undefined && rpc?.code !== row.code) return false;
  if (row.message !== undefined && rpc?.message !== row.message) return false;
  if (row.messagePrefix !== undefined && !rpc?.message.startsWith(row.messagePrefix)) return false;
  if (row.reason !== undefined && dataField(rpc, 'reason') !== row.reason) return false;
  return row.text === undefined || text?.trim() === row.text;
}

/** The first dialect that matches, trying `extra` rows before the built-in ones. */
export function matchDialect(
  evidence: DialectEvidence,
  extra: readonly SessionGoneDialect[] = [],
): SessionGoneDialect | undefined {
  return extra.find((row) => matches(row, evidence)) ?? SESSION_GONE_DIALECTS.find((row) => matches(row, evidence));
}
