/** A server's answer to one request, as recorded in the fixture. */
export interface WireAnswer {
  readonly status: number;
  /** The `Content-Type` header as sent, or `null` when there is none. */
  readonly contentType: string | null;
  /**
   * The body, byte for byte, except SSE `id:` values (random per event) written `<event-id>`.
   * `null`: a 200 event stream, left open and not read.
   */
  readonly body: string | null;
}

/** The answers to a POST and a GET carrying one session id. */
export interface AnswerPair {
  readonly POST: WireAnswer;
  readonly GET: WireAnswer;
}

const REVISION = '2025-11-25';
const ACCEPT_BOTH = 'application/json, text/event-stream';

function normalize(body: string): string {
  return body.replace(/^id: ?.*$/gm, 'id: <event-id>');
}

/**
 * POSTs `ping` and opens the standalone GET with `sessionId` (on 2025-11-25, as the SDK
 * clients send them) and returns both answers as the fixture records them. A 200 event stream
 * on GET is not read: it would never end.
 *
 * @example
 * await answersTo(server.url, deadId) // { POST: { status: 404, contentType: null, body: '{"jsonrpc":…}' }, GET: … }
 */
export async function answersTo(url: string, sessionId: string): Promise<AnswerPair> {
  const common = { 'mcp-session-id': sessionId, 'mcp-protocol-version': REVISION };
  const post = await fetch(url, {
    method: 'POST',
    headers: { ...common, 'content-type': 'application/json', accept: ACCEPT_BOTH },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  const postAnswer: WireAnswer = { status: post.status, contentType: post.headers.get('content-type'), body: normalize(await post.text()) };
  const abort = new AbortController();
  const get = await fetch(url, { method: 'GET', headers: { ...common, accept: 'text/event-stream' }, signal: abort.signal });
  const contentType = get.headers.get('content-type');
  let body: string | null;
  if (get.status === 200 && contentType?.startsWith('text/event-stream')) {
    abort.abort();
    body = null;
  } else {
    body = normalize(await get.text());
  }
  return { POST: postAnswer, GET: { status: get.status, contentType, body } };
}

/**
 * Opens a session the way a client does (`initialize`, then `notifications/initialized`)
 * with plain fetch, and returns the session id the server issued (`undefined`: none).
 *
 * @example
 * const id = await openSession(server.url); // '5791408f-…'
 */
export async function openSession(url: string): Promise<string | undefined> {
  const headers = { 'content-type': 'application/json', accept: ACCEPT_BOTH };
  const init = await fetch(url, {
    method: 'POST', headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: REVISION, capabilities: {}, clientInfo: { name: 'probe', version: '0' } } }),
  });
  await init.text();
  if (!init.ok) throw new Error(`initialize answered ${init.status}`);
  const id = init.headers.get('mcp-session-id') ?? undefined;
  const session = id === undefined ? {} : { 'mcp-session-id': id };
  const initialized = await fetch(url, {
    method: 'POST', headers: { ...headers, ...session, 'mcp-protocol-version': REVISION },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await initialized.text();
  return id;
}
