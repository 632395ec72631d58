import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CannedResponse } from './dialect-responses.ts';

/** A request body the fault layer reads at most (more is answered 413). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** What the fault layer reads of a JSON-RPC body: the first message's method, id and params. */
export interface RpcHead {
  readonly method?: string;
  readonly id?: string | number | null;
  readonly params?: Record<string, unknown>;
}

/**
 * The body of a request as text; `undefined` once it is over {@link MAX_BODY_BYTES}.
 *
 * @example
 * const raw = await readBody(req); // '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
 */
export function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) resolve(undefined);
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * A body as JSON, or as its text when it is not JSON (the backend answers that).
 *
 * @example
 * parseBody('{"id":1}') // { id: 1 }
 * parseBody('not json') // 'not json'
 */
export function parseBody(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * The first message of a body (of a batch, its first), or nothing to read.
 *
 * @example
 * firstMessage([{ id: 1, method: 'tools/call' }]) // { id: 1, method: 'tools/call' }
 */
export function firstMessage(body: unknown): RpcHead {
  const message = Array.isArray(body) ? body[0] : body;
  return typeof message === 'object' && message !== null ? (message as RpcHead) : {};
}

/**
 * Sends a canned answer whole.
 *
 * @example
 * send(res, { status: 404, headers: { 'content-type': 'text/plain' }, body: 'gone' });
 */
export function send(res: ServerResponse, { status, headers, body }: CannedResponse): void {
  res.writeHead(status, headers).end(body);
}
