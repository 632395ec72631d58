/** One HTTP exchange with the server under check, as it came back. */
export interface Exchange {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** JSON-RPC messages from a JSON body or from the `data:` lines of an event stream. */
  readonly messages: readonly Record<string, unknown>[];
}

/** What to send: the HTTP method, the headers, a JSON-RPC message for a POST. */
export interface Send {
  readonly method: 'POST' | 'GET' | 'DELETE';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** A request the server did not answer within its cap, or could not be sent. */
export class NoAnswerError extends Error {
  override name = 'NoAnswerError';
}

/** The JSON-RPC messages of a body: a JSON object or list, or the `data:` lines of an event stream. */
export function messagesOf(text: string, contentType: string | null): Record<string, unknown>[] {
  const parse = (data: string): Record<string, unknown>[] => {
    try {
      const value = JSON.parse(data) as unknown;
      const list = Array.isArray(value) ? value : [value];
      return list.filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null);
    } catch {
      return [];
    }
  };
  if (!contentType?.includes('text/event-stream')) return parse(text);
  return text.split(/\r?\n\r?\n/).flatMap((block) => {
    const data = block.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
    return data === '' ? [] : parse(data);
  });
}

const ACCEPT = { POST: 'application/json, text/event-stream', GET: 'text/event-stream', DELETE: 'application/json, text/event-stream' } as const;

/**
 * Sends one request and reads the whole answer, within `capMs` (the headers and the body);
 * throws {@link NoAnswerError} saying what was sent when nothing (or not all) came back in time.
 *
 * @example
 * const reply = await exchange(url, { method: 'POST', body: { jsonrpc: '2.0', id: 1, method: 'ping' } }, 10_000);
 */
export async function exchange(url: string, send: Send, capMs: number): Promise<Exchange> {
  const signal = AbortSignal.timeout(capMs);
  try {
    const response = await fetch(url, {
      method: send.method, signal,
      headers: { accept: ACCEPT[send.method], ...(send.body === undefined ? {} : { 'content-type': 'application/json' }), ...send.headers },
      ...(send.body === undefined ? {} : { body: JSON.stringify(send.body) }),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, messages: messagesOf(text, response.headers.get('content-type')) };
  } catch (error) {
    const why = signal.aborted ? `no answer within ${capMs} ms` : `failed: ${(error as Error).message}${(error as Error).cause ? ` (${String((error as { cause: unknown }).cause)})` : ''}`;
    throw new NoAnswerError(`${send.method} ${why}`);
  }
}

/**
 * A GET carrying a session id, for its answer: a stream that opens (200, `text/event-stream`) is
 * closed at once and shown as `(an event stream opened)`; any other answer is read whole.
 *
 * @example
 * (await probeGet(url, { 'mcp-session-id': 'dead' }, 10_000)).status; // 404
 */
export async function probeGet(url: string, headers: Readonly<Record<string, string>>, capMs: number): Promise<Exchange> {
  const stream = await openStream(url, headers, capMs);
  stream.close();
  return stream.refused ?? { status: 200, headers: stream.headers, text: '(an event stream opened)', messages: [] };
}

/** An open GET stream: its status, and what closes it. */
export interface OpenStream {
  readonly status: number;
  readonly headers: Headers;
  /** The whole answer when it was not a stream (not 200). */
  readonly refused?: Exchange;
  /** True while the server keeps it open. */
  readonly open: () => boolean;
  close(): void;
}

/**
 * Opens a standalone GET stream (`Accept: text/event-stream`) and keeps reading it until
 * `close()`; resolves once the headers came back (within `capMs`). A non-200 answer is read
 * whole (`refused`).
 *
 * @example
 * const stream = await openStream(url, { 'mcp-session-id': id }, 10_000);
 * stream.close();
 */
export async function openStream(url: string, headers: Readonly<Record<string, string>>, capMs: number): Promise<OpenStream> {
  const abort = new AbortController();
  const cap = setTimeout(() => abort.abort(), capMs);
  let response: Response;
  let refused: Exchange | undefined;
  try {
    response = await fetch(url, { method: 'GET', headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
    if (response.status !== 200 || response.body === null) {
      const text = await response.text();
      refused = { status: response.status, headers: response.headers, text, messages: messagesOf(text, response.headers.get('content-type')) };
    }
  } catch (error) {
    throw new NoAnswerError(`GET ${abort.signal.aborted ? `no answer within ${capMs} ms` : `failed: ${(error as Error).message}`}`);
  } finally {
    clearTimeout(cap);
  }
  if (refused) return { status: refused.status, headers: refused.headers, refused, open: () => false, close: () => {} };
  let open = true;
  const reader = response.body!.getReader();
  void (async () => {
    try {
      while (!(await reader.read()).done);
    } catch {
      // Closed by us, or broken by the server: either way it is no longer open.
    }
    open = false;
  })();
  return { status: response.status, headers: response.headers, open: () => open, close: () => abort.abort() };
}
