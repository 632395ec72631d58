import { createServer, request as forward } from 'node:http';

/** A proxy in front of an MCP server whose CORS headers are exactly the ones given, and nothing of the server's own. */
export interface CorsProxy {
  /** The target's URL, through the proxy. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Puts `target` (an MCP endpoint on 127.0.0.1) behind a proxy on another port that answers the
 * preflight itself and replaces every `Access-Control-*` header of the target's answers with
 * `headers`: what a page can do then depends on those headers alone. Streams pass through as they come.
 *
 * @example
 * const proxy = await startCorsProxy(chaos.url, { 'access-control-allow-origin': origin });
 */
export async function startCorsProxy(target: string, headers: Readonly<Record<string, string>>): Promise<CorsProxy> {
  const to = new URL(target);
  const server = createServer((request, response) => {
    if (request.method === 'OPTIONS') return void response.writeHead(204, headers).end();
    const upstream = forward({ host: to.hostname, port: to.port, path: to.pathname, method: request.method, headers: { ...request.headers, host: to.host } }, (answer) => {
      const kept = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !name.startsWith('access-control-')));
      response.writeHead(answer.statusCode!, { ...kept, ...headers });
      answer.pipe(response);
    });
    upstream.once('error', () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}${to.pathname}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
