import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** Headers about one connection, or that the body as fetch decoded it no longer matches. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

function toNodeHeaders(headers: Headers, omit: ReadonlySet<string>): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && !omit.has(name)) out[name] = value;
  });
  return out;
}

/** Resolves when `res` can take more data again, or when it closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

async function pipeBody(res: ServerResponse, body: ReadableStream<Uint8Array>): Promise<void> {
  const reader = body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  res.once('close', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await drained(res);
    }
  } catch {
    // The stream was cancelled (client gone) or the exchange was torn down: end what we have.
  } finally {
    res.off('close', cancel);
    if (!res.writableEnded) res.end();
  }
}

/**
 * Writes a web-standard `Response` to a Node response: status, headers (without the
 * hop-by-hop ones and those in `omit`), then the body, streamed chunk by chunk with
 * back-pressure so an SSE response reaches the client as it is produced. When the client goes
 * away the body stream is cancelled.
 *
 * @example
 * await writeWebResponse(res, await handler.fetch(request), new Set(['mcp-session-id']));
 */
export async function writeWebResponse(res: ServerResponse, response: Response, omit: ReadonlySet<string> = new Set()): Promise<void> {
  if (res.destroyed) {
    await response.body?.cancel().catch(() => undefined);
    return;
  }
  res.writeHead(response.status, toNodeHeaders(response.headers, omit));
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  await pipeBody(res, response.body);
}
