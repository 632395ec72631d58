import { createServer, request as forward } from 'node:http';

/** A proxy that lets a chosen call run on the server, then loses its answer. */
export interface DropAfterRun {
  /** The target's URL, through the proxy. */
  readonly url: string;
  /** The JSON-RPC methods of the POSTs the proxy received, in order. */
  readonly posts: readonly string[];
  close(): Promise<void>;
}

/**
 * Puts `target` (an MCP endpoint on 127.0.0.1, its CORS headers passed through) behind a proxy
 * that passes everything on as it comes, but for the first POST whose JSON-RPC method is
 * `tools/call` of the tool `tool`: that one is passed on and its whole answer read (the call ran
 * on the server), then `before()` is awaited (the test takes the page offline), then the
 * connection is cut without an answer. What a device that lost its network after sending sees.
 *
 * @example
 * const proxy = await startDropAfterRun(chaos.url, 'record', () => context.setOffline(true));
 */
export async function startDropAfterRun(target: string, tool: string, before: () => Promise<void>): Promise<DropAfterRun> {
  const to = new URL(target);
  const posts: string[] = [];
  let dropped = false;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      let message: { method?: string; params?: { name?: string } } = {};
      try {
        message = JSON.parse(body.toString()) as typeof message;
      } catch {
        // not JSON-RPC: passed on as it is
      }
      if (request.method === 'POST') posts.push(message.method ?? '?');
      const drop = !dropped && request.method === 'POST' && message.method === 'tools/call' && message.params?.name === tool;
      dropped ||= drop;
      const upstream = forward({ host: to.hostname, port: to.port, path: to.pathname, method: request.method, headers: { ...request.headers, host: to.host } }, (answer) => {
        if (!drop) {
          // No connection is used twice: Chromium sends a POST again by itself when a reused one is cut before any answer.
          response.writeHead(answer.statusCode!, { ...answer.headers, connection: 'close' });
          return void answer.pipe(response);
        }
        answer.resume();
        answer.once('end', () => void before().finally(() => request.socket.destroy()));
      });
      upstream.once('error', () => response.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}${to.pathname}`,
    posts,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
