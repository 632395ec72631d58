import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback, passOn, readRpcRequest, relayAnswer } from './relay.ts';

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
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const { body, rpcMethod } = await readRpcRequest(req);
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
      const response = await passOn(req, res, body, target);
      const minted = response.headers.get('mcp-session-id');
      if (rpcMethod === 'initialize' && minted !== null && response.ok) {
        owners.set(minted, sender);
        initializes.set(sender, [...(initializes.get(sender) ?? []), token ?? '']);
      }
      await relayAnswer(response, res);
    })().catch(() => res.destroy());
  });
  const { port, stop } = await listenOnLoopback(server);
  return {
    url: new URL(new URL(target).pathname, `http://127.0.0.1:${port}`).href,
    violations,
    unknownIds,
    initializes: (user) => initializes.get(user) ?? [],
    deletes: (user) => deletes.get(user) ?? 0,
    stop,
  };
}
