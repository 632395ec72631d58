import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/**
 * Request headers that describe the Node connection rather than the MCP message, plus
 * `mcp-session-id`: the 2026-07-28 revision has no sessions, so the backend never lets the
 * SDK see one.
 */
const DROPPED_REQUEST_HEADERS = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'upgrade',
  'expect',
  'mcp-session-id',
]);

function toWebHeaders(headers: IncomingHttpHeaders): Headers {
  const web = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROPPED_REQUEST_HEADERS.has(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) web.append(name, item);
  }
  return web;
}

function requestUrl(req: IncomingMessage): URL {
  try {
    return new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
  } catch {
    return new URL('http://localhost/');
  }
}

/** The body text to give the web `Request`: raw text stays as it is, parsed JSON is re-serialised. */
function bodyText(body: unknown): string | undefined {
  if (body === undefined) return undefined;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/**
 * Builds the web-standard `Request` the SDK's fetch-shaped handler serves from a Node request
 * whose body was already read and parsed (`body` is the parsed JSON, or the raw text when it
 * was not JSON). `signal` aborts the exchange, which 2026-07-28 treats as cancellation.
 *
 * @example
 * const request = toWebRequest(req, { jsonrpc: '2.0', id: 1, method: 'server/discover' }, abort.signal);
 * await handler.fetch(request);
 */
export function toWebRequest(req: IncomingMessage, body: unknown, signal: AbortSignal): Request {
  const method = (req.method ?? 'GET').toUpperCase();
  const text = method === 'GET' || method === 'HEAD' ? undefined : bodyText(body);
  return new Request(requestUrl(req), {
    method,
    headers: toWebHeaders(req.headers),
    signal,
    ...(text !== undefined && { body: text }),
  });
}

/**
 * Answers with a JSON-RPC error body (id `null`) and the given HTTP status, unless the
 * response was already started.
 *
 * @example
 * writeJsonRpcError(res, 503, -32000, 'Server closed');
 */
export function writeJsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent || res.destroyed) {
    if (!res.writableEnded) res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
