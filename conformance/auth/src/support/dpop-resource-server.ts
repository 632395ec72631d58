import express, { type Request, type Response } from 'express';
import { mcpAuthMetadataRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthorizationServer } from './authorization-server.ts';
import { checkDpopProof } from './dpop-proof-check.ts';
import { listen } from './listen.ts';
import type { ProtectedMcpServer } from './protected-mcp-server.ts';
import { watchedLog } from './wire-log.ts';

/** How far a proof's `iat` may stray from the server's clock: generous, the test never judges speed. */
const IAT_WINDOW_S = 300;

/** One request the DPoP resource server saw, and what it made of its proof. */
export interface DpopWireEntry {
  readonly http: string;
  /** The JSON-RPC method (`response` for a client's answer), undefined for a body-less request. */
  readonly rpc: string | undefined;
  /** Whether it carried an `Mcp-Session-Id`. */
  readonly sessionSent: boolean;
  /** The `Authorization` scheme it used: `DPoP`, `Bearer`, or `-`. */
  readonly scheme: string;
  /** How many `DPoP` header fields it carried (one, for a request that follows RFC 9449). */
  readonly proofs: number;
  /** Its proof's `jti`, named by first appearance (`p1`, `p2`, …; the same name for the same `jti`), or `-`. */
  readonly proof: string;
  /** `accepted`, `reused jti`, or why else the proof was refused (`no proof`, `bad signature`, …). */
  readonly verdict: string;
  readonly status: number;
}

/** A DPoP-checking resource server in front of a protected MCP server, and the test's hands on it. */
export interface DpopResourceServer {
  /** `http://127.0.0.1:<port>/mcp`: what clients address (and every proof's `htu`). */
  readonly url: string;
  /** Every request since the last reset, in the order the answers went out (logged as each goes). */
  readonly wire: readonly DpopWireEntry[];
  /** The next request whose JSON-RPC method is `rpc` and whose proof is accepted (and spent) is answered 429, `Retry-After: 0`: once. */
  rateLimitNext(rpc: string): void;
  /** The first entry logged (since the last reset, or from now on) that `matches`: a request's answer gone out. */
  whenLogged(matches: (entry: DpopWireEntry) => boolean): Promise<DpopWireEntry>;
  /** The MCP server behind ends every session: their ids are answered 404 from now on. */
  dropSessions(): Promise<void>;
  /** Empties the wire log (proof names restart at `p1`) and disarms `rateLimitNext`; the `jti`s spent stay spent. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * Renders DPoP wire entries one line each, for assertions and traces.
 *
 * @example
 * renderDpopWire(server.wire);
 * // ['POST tools/call session=sent proof=p3 accepted → 404', 'POST tools/call session=sent proof=p3 reused jti → 401']
 */
export function renderDpopWire(entries: readonly DpopWireEntry[]): string[] {
  return entries.map((e) => {
    const extra = e.scheme === 'DPoP' && e.proofs <= 1 ? '' : ` scheme=${e.scheme} proofs=${e.proofs}`;
    return `${e.http} ${e.rpc ?? '-'} session=${e.sessionSent ? 'sent' : 'none'}${extra} proof=${e.proof} ${e.verdict} → ${e.status}`;
  });
}

function rpcMethodOf(body: unknown): string | undefined {
  if (!Buffer.isBuffer(body) || body.length === 0) return undefined;
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    const first: unknown = Array.isArray(parsed) ? parsed[0] : parsed;
    if (first === null || typeof first !== 'object') return undefined;
    const method = (first as { method?: unknown }).method;
    return typeof method === 'string' ? method : 'response';
  } catch {
    return undefined;
  }
}

/** Headers of the client's request the MCP server behind needs; the credentials go as `Bearer`, the proof having been checked here. */
const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id'];
const FORWARDED_RESPONSE_HEADERS = ['content-type', 'mcp-session-id', 'allow', 'retry-after'];

/**
 * Starts a DPoP-checking resource server (RFC 9449 §7) on 127.0.0.1 in front of `upstream`: each
 * request must present `Authorization: DPoP <token>` with exactly one `DPoP` proof that passes
 * {@link checkDpopProof} (ES256 signature by the proof's own `jwk`, `htm`, `htu` = this server's
 * URL, `iat` within 5 minutes, `ath` of the token) and whose `jti` was never presented before;
 * otherwise it answers 401 `WWW-Authenticate: DPoP error="invalid_dpop_proof"` (or
 * `invalid_token` for another scheme) and sends nothing on. An accepted proof's `jti` is spent,
 * whatever the answer. The request then goes to `upstream` (the token as `Bearer`, which the
 * upstream checks), and its answer comes back. Serves its own protected-resource metadata naming
 * `authorizationServer`. Every request is logged with its proof's fate.
 *
 * @example
 * const rs = await startDpopResourceServer(await startProtectedMcpServer('auth-first', as), as);
 * await rs.dropSessions();
 * rs.rateLimitNext('tools/call');
 * await rs.whenLogged((e) => e.http === 'GET'); // the SDK's standalone GET answered (405)
 * renderDpopWire(rs.wire); // ['POST tools/call session=sent proof=p7 accepted → 404', …]
 */
export async function startDpopResourceServer(upstream: ProtectedMcpServer, authorizationServer: AuthorizationServer): Promise<DpopResourceServer> {
  const wire: DpopWireEntry[] = [];
  const spent = new Set<string>();
  let names = new Map<string, string>();
  const rateLimited = new Set<string>();
  const watched = watchedLog(wire);
  const log = watched.push;
  let url!: URL;

  const nameOf = (jti: string | undefined): string => {
    if (jti === undefined) return '-';
    let name = names.get(jti);
    if (name === undefined) names.set(jti, (name = `p${names.size + 1}`));
    return name;
  };

  /** The proof's fate: `accepted` (its `jti` now spent) or why not, with the refusal to answer. */
  const judge = async (req: Request, token: string | undefined, scheme: string, proofs: string[]): Promise<{ proof: string; verdict: string; error?: 'invalid_dpop_proof' | 'invalid_token' }> => {
    if (scheme.toLowerCase() !== 'dpop' || token === undefined) return { proof: '-', verdict: 'not the DPoP scheme', error: 'invalid_token' };
    if (proofs.length !== 1) return { proof: '-', verdict: proofs.length ? 'more than one proof' : 'no proof', error: 'invalid_dpop_proof' };
    const checked = await checkDpopProof(proofs[0]!, {
      method: req.method, url: `${url.origin}${new URL(req.originalUrl, url).pathname}`, accessToken: token, nowS: Date.now() / 1000, iatWindowS: IAT_WINDOW_S,
    });
    const proof = nameOf(checked.jti);
    if (!checked.ok) return { proof, verdict: checked.reason, error: 'invalid_dpop_proof' };
    // Checked and spent in the same tick: two requests carrying one proof cannot both pass.
    if (spent.has(checked.jti)) return { proof, verdict: 'reused jti', error: 'invalid_dpop_proof' };
    spent.add(checked.jti);
    return { proof, verdict: 'accepted' };
  };

  const handle = async (req: Request, res: Response): Promise<void> => {
    const rpc = rpcMethodOf(req.body);
    const proofs = req.headersDistinct.dpop ?? [];
    const authorization = /^(\S+)\s+(\S+)$/.exec(req.header('authorization') ?? '');
    const scheme = authorization?.[1] ?? '-';
    const token = authorization?.[2];
    const { proof, verdict, error } = await judge(req, token, scheme, proofs);
    const entry: DpopWireEntry = { http: req.method, rpc, sessionSent: req.header('mcp-session-id') !== undefined, scheme, proofs: proofs.length, proof, verdict, status: 0 };
    // Logged as the answer goes out (before the client can have it): a test reading the log after its call sees it.
    const answering = (status: number): Response => {
      log({ ...entry, status });
      return res.status(status);
    };
    if (error) {
      const challenge = `DPoP error="${error}", error_description="${verdict}", algs="ES256"`;
      return void answering(401).set('WWW-Authenticate', challenge).json({ error, error_description: verdict });
    }

    if (rpc !== undefined && rateLimited.delete(rpc)) return void answering(429).set('Retry-After', '0').json({ error: 'rate limited' });

    const headers = new Headers({ authorization: `Bearer ${token ?? ''}` });
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = req.header(name);
      if (value !== undefined) headers.set(name, value);
    }
    const body = Buffer.isBuffer(req.body) && req.body.length > 0 ? req.body : undefined;
    const answer = await fetch(upstream.url, { method: req.method, headers, ...(body ? { body: new Uint8Array(body) } : {}) });
    const text = Buffer.from(await answer.arrayBuffer());
    answering(answer.status);
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = answer.headers.get(name);
      if (value !== null) res.set(name, value);
    }
    // The upstream's Bearer challenge (an unknown or expired token), as this DPoP resource says it.
    if (answer.status === 401) res.set('WWW-Authenticate', 'DPoP error="invalid_token", algs="ES256"');
    res.end(text);
  };

  let metadataRouter: express.RequestHandler | undefined;
  const app = express();
  app.use((req, res, next) => {
    metadataRouter ??= mcpAuthMetadataRouter({ oauthMetadata: authorizationServer.metadata, resourceServerUrl: url });
    metadataRouter(req, res, next);
  });
  app.all('/mcp', express.raw({ type: () => true, limit: '4mb' }), (req, res) => {
    handle(req, res).catch((error: unknown) => void res.status(500).json({ error: String(error) }));
  });
  const listening = await listen(app);
  url = new URL(`${listening.origin}/mcp`);

  return {
    url: url.href,
    wire,
    rateLimitNext: (rpc) => void rateLimited.add(rpc),
    whenLogged: watched.whenLogged,
    dropSessions: () => upstream.dropSessions(),
    reset: () => {
      wire.length = 0;
      names = new Map();
      rateLimited.clear();
    },
    close: listening.close,
  };
}
