import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback, passOn, readRpcRequest, relayAnswer } from './relay.ts';

/** Which check a request meets first when both its session and its token are gone. */
export type AuthOrder = 'auth-first' | 'session-first';

/** One request as the gateway saw it: what it carried and what it was answered. */
export interface GatewayRecord {
  readonly httpMethod: string;
  readonly rpcMethod?: string;
  /** The token's version (`Bearer alice.3` is 3), or 0 without one. */
  readonly tokenVersion: number;
  readonly sessionSent: boolean;
  readonly status: number;
}

export interface AuthGateway {
  readonly url: string;
  readonly records: readonly GatewayRecord[];
  /** Tokens of a version below `version` are expired from now on (401). */
  expireTokensBelow(version: number): void;
  /** Every session the gateway routes is ended: its id gets 404 from now on. */
  endSessions(): void;
  /** From now on a token below version `version` lacks the scope an `initialize` needs: 403 `insufficient_scope`. */
  scopeBelow(version: number): void;
  /** The statuses each `initialize` got, with the token version it carried: `1:200`, `1:401`, `2:200`. */
  initializes(): string[];
  stop(): Promise<void>;
}

const challenge = 'Bearer error="invalid_token", error_description="The access token expired"';
const scopeChallenge = 'Bearer error="insufficient_scope", scope="mcp:tools"';

/**
 * A real HTTP gateway on 127.0.0.1 in front of a real MCP server that checks a bearer token
 * (`Bearer user.N`, valid while N is not below the expiry) and routes by `Mcp-Session-Id` (an id
 * it did not see minted, or one it ended, gets 404), in the order given: `auth-first` (the SDK's
 * `requireBearerAuth` in front of the transport) or `session-first` (a gateway that routes by
 * session before the backend checks the token).
 *
 * @example
 * const gateway = await startAuthGateway(chaos.url, 'session-first');
 * gateway.expireTokensBelow(2); gateway.endSessions(); // a long pause: both gone
 */
export async function startAuthGateway(target: string, order: AuthOrder): Promise<AuthGateway> {
  const live = new Set<string>();
  const records: GatewayRecord[] = [];
  let validFrom = 0;
  let scopedFrom = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const { body, rpcMethod } = await readRpcRequest(req);
      const version = Number(/^Bearer [^.]+\.(\d+)$/.exec(req.headers.authorization ?? '')?.[1] ?? 0);
      const sessionId = req.headers['mcp-session-id'];
      const sessionSent = typeof sessionId === 'string';
      const note = (status: number) => records.push({ httpMethod: req.method!, ...(rpcMethod ? { rpcMethod } : {}), tokenVersion: version, sessionSent, status });
      const expired = version === 0 || version < validFrom;
      const gone = sessionSent && !live.has(sessionId);
      const refuse = (status: number) => {
        note(status);
        if (status === 401) return void res.writeHead(401, { 'www-authenticate': challenge, 'content-type': 'application/json' }).end('{"error":"invalid_token"}');
        res.writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found' } }));
      };
      if (order === 'auth-first' ? expired : gone) return refuse(order === 'auth-first' ? 401 : 404);
      if (order === 'auth-first' ? gone : expired) return refuse(order === 'auth-first' ? 404 : 401);
      if (rpcMethod === 'initialize' && version < scopedFrom) {
        note(403);
        return void res.writeHead(403, { 'www-authenticate': scopeChallenge, 'content-type': 'application/json' }).end('{"error":"insufficient_scope"}');
      }
      const response = await passOn(req, res, body, target);
      note(response.status);
      const minted = response.headers.get('mcp-session-id');
      if (rpcMethod === 'initialize' && minted !== null && response.ok) live.add(minted);
      await relayAnswer(response, res);
    })().catch(() => res.destroy());
  });
  const { port, stop } = await listenOnLoopback(server);
  return {
    url: new URL(new URL(target).pathname, `http://127.0.0.1:${port}`).href,
    records,
    expireTokensBelow: (version) => void (validFrom = version),
    endSessions: () => live.clear(),
    scopeBelow: (version) => void (scopedFrom = version),
    initializes: () => records.filter((r) => r.rpcMethod === 'initialize').map((r) => `${r.tokenVersion}:${r.status}`),
    stop,
  };
}
