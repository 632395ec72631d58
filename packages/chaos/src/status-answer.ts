import type { ServerResponse } from 'node:http';
import type { CannedResponse } from './dialect-responses.ts';
import type { Fault } from './faults.ts';

/**
 * What a `status` fault answers: its status, `Retry-After`, body and content type (text/plain
 * unless it says).
 *
 * @example
 * statusAnswer({ kind: 'status', status: 503, contentType: 'text/html', body: '<html>503</html>' });
 * // { status: 503, headers: { 'content-type': 'text/html' }, body: '<html>503</html>' }
 */
export function statusAnswer(fault: Extract<Fault, { kind: 'status' }>): CannedResponse {
  const headers: Record<string, string> = { 'content-type': fault.contentType ?? 'text/plain' };
  if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
  return { status: fault.status, headers, body: fault.body ?? `chaos: status ${fault.status}` };
}

/**
 * Lets the server answer a request in full, out of the client's sight, then sends `answer`
 * instead: what a gateway does when its upstream timed out or reset after it forwarded the
 * request. Nothing of the server's answer (status, headers, body) leaves; the headers set before
 * (CORS) stay. `onReplaced` is told when the server's answer is over and the replacement goes.
 *
 * @example
 * replaceAnswer(res, { status: 503, headers: { 'content-type': 'text/html' }, body: '<html>503</html>' }, () => (wire.fault = 'status 503 after run'));
 * await backend.handle(req, res, body); // the tool runs; the client gets the 503
 */
export function replaceAnswer(res: ServerResponse, answer: CannedResponse, onReplaced: () => void): void {
  const own = new Set(res.getHeaderNames());
  const original = { writeHead: res.writeHead, write: res.write, end: res.end, flushHeaders: res.flushHeaders };
  const callbackIn = (args: readonly unknown[]) => args.find((a) => typeof a === 'function') as (() => void) | undefined;
  let replaced = false;
  res.writeHead = (() => res) as ServerResponse['writeHead'];
  res.flushHeaders = () => {};
  res.write = ((...args: unknown[]) => (callbackIn(args)?.(), true)) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => {
    if (replaced) return res;
    replaced = true;
    Object.assign(res, original);
    for (const name of res.getHeaderNames()) if (!own.has(name)) res.removeHeader(name); // the server's own headers stay unsent
    onReplaced();
    res.writeHead(answer.status, answer.headers).end(answer.body, callbackIn(args));
    return res;
  }) as ServerResponse['end'];
}
