import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request the guard refused: it carried a session opened by another user, or another user's token. */
export interface Violation {
  readonly httpMethod: string;
  readonly rpcMethod?: string;
  /** The user the session belongs to (the one whose `initialize` opened it). */
  readonly owner: string;
  /** The user whose token the request carried. */
  readonly sender: string;
}

export interface TokenGuard {
  readonly url: string;
  /** Every request refused so far: a test of isolation expects none. */
  readonly violations: readonly Violation[];
  /** The tokens (whole) that each `initialize` answered with a session carried, in order. */
  initializes(user: string): readonly string[];
  /** Session ids that the guard never saw minted, as requests carried them. */
  readonly unknownIds: readonly string[];
  /** How many DELETEs each user sent. */
  deletes(user: string): number;
  stop(): Promise<void>;
}

/** The user a token names: `Bearer alice.2` is user `alice` (token version 2, a refreshed credential). */
export function userOf(authorization: string | undefined): string {
  return authorization?.replace(/^Bearer /, '').split('.')[0] ?? '<none>';
}

/**
 * A real HTTP proxy on 127.0.0.1 in front of a real MCP server that binds each session to the
 * user whose `initialize` opened it, and refuses (403, never forwarded, recorded as a
 * {@link Violation}) any request carrying that session with another user's token, or none.
 *
 * @example
 * const guard = await startTokenGuard(chaos.url);
 * // … clients of users alice and bob on one fetch, through guard.url …
 * expect(guard.violations).toEqual([]);
 */
export async function startTokenGuard(target: string): Promise<TokenGuard> {
  const owners = new Map<string, string>();
  const violations: Violation[] = [];
  const initializes = new Map<string, string[]>();
  const unknownIds: string[] = [];
  const deletes = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      let rpcMethod: string | undefined;
      try {
        const method = (JSON.parse(body) as { method?: unknown }).method;
        if (typeof method === 'string') rpcMethod = method;
      } catch {
        // Not JSON-RPC.
      }
      const token = req.headers.authorization;
      const sender = userOf(token);
      const sessionId = req.headers['mcp-session-id'];
      if (req.method === 'DELETE') deletes.set(sender, (deletes.get(sender) ?? 0) + 1);
      if (typeof sessionId === 'string') {
        const owner = owners.get(sessionId);
        if (owner === undefined) unknownIds.push(sessionId);
        else if (owner !== sender) {
          violations.push({ httpMethod: req.method!, ...(rpcMethod ? { rpcMethod } : {}), owner, sender });
          return void res.writeHead(403, { 'content-type': 'text/plain' }).end('another user\'s session');
        }
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host') headers.set(name, value);
      const upstream = new AbortController();
      res.on('close', () => upstream.abort());
      const response = await fetch(new URL(req.url!, target), { method: req.method!, headers, signal: upstream.signal, ...(body === '' ? {} : { body }) });
      const minted = response.headers.get('mcp-session-id');
      if (rpcMethod === 'initialize' && minted !== null && response.ok) {
        owners.set(minted, sender);
        initializes.set(sender, [...(initializes.get(sender) ?? []), token ?? '']);
      }
      const out: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'transfer-encoding') out[name] = value;
      });
      res.writeHead(response.status, out);
      if (!response.body) return void res.end();
      const reader = response.body.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
      res.end();
    })().catch(() => res.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(new URL(target).pathname, `http://127.0.0.1:${port}`).href,
    violations,
    unknownIds,
    initializes: (user) => initializes.get(user) ?? [],
    deletes: (user) => deletes.get(user) ?? 0,
    stop: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
