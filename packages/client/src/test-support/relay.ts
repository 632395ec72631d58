import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * What the test proxies need of a request: its body as text, and its JSON-RPC method when it is one.
 *
 * @example
 * const { body, rpcMethod } = await readRpcRequest(req);
 */
export async function readRpcRequest(req: IncomingMessage): Promise<{ readonly body: string; readonly rpcMethod?: string }> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  try {
    const method = (JSON.parse(body) as { method?: unknown }).method;
    if (typeof method === 'string') return { body, rpcMethod: method };
  } catch {
    // Not JSON-RPC.
  }
  return { body };
}

/**
 * A signal that aborts once the client's connection for `res` closes (take it before any wait:
 * a client that gave up during the wait then sends nothing on).
 *
 * @example
 * const signal = abortedOnClose(res);
 */
export function abortedOnClose(res: ServerResponse): AbortSignal {
  const upstream = new AbortController();
  res.on('close', () => upstream.abort());
  return upstream.signal;
}

/**
 * Sends `req` (its `body` already read) on to `target`, as it came but for `host`, until `signal`
 * aborts (by default, until the client's connection closes).
 *
 * @example
 * const response = await passOn(req, res, body, target);
 */
export function passOn(req: IncomingMessage, res: ServerResponse, body: string, target: string, signal = abortedOnClose(res)): Promise<Response> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host') headers.set(name, value);
  return fetch(new URL(req.url!, target), { method: req.method!, headers, signal, ...(body === '' ? {} : { body }) });
}

/**
 * Writes `response`'s status and headers to `res` (without its framing headers), then its body
 * as it streams, unless `body` is given to send instead.
 *
 * @example
 * await relayAnswer(await passOn(req, res, body, target), res);
 */
export async function relayAnswer(response: Response, res: ServerResponse, body?: string): Promise<void> {
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'content-length' && name !== 'transfer-encoding') out[name] = value;
  });
  res.writeHead(response.status, out);
  if (body !== undefined || !response.body) return void res.end(body);
  const reader = response.body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
  res.end();
}

/**
 * Starts `server` on 127.0.0.1 and a free port; `stop()` ends its open connections and closes it.
 *
 * @example
 * const { port, stop } = await listenOnLoopback(server);
 */
export async function listenOnLoopback(server: Server): Promise<{ readonly port: number; stop(): Promise<void> }> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    stop: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
