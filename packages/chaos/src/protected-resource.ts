import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CannedResponse } from './dialect-responses.ts';

/**
 * What a server reports first when a request's session and token are both dead: the bearer check
 * (`auth-first`, the SDK's `requireBearerAuth` in front of the transport) or the session lookup
 * (`session-first`, a gateway that routes by session id before it authenticates).
 */
export type AuthOrder = 'auth-first' | 'session-first';

/** An access token and the refresh token that renews it, as the token endpoint issues them. */
export interface TokenPair {
  readonly accessToken: string;
  readonly refreshToken: string;
}

/** The paths a protected resource serves beside `/mcp` (RFC 9728, RFC 8414, and its token endpoint). */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';
const AS_METADATA_PATH = '/.well-known/oauth-authorization-server';
const TOKEN_PATH = '/token';
const MAX_FORM_BYTES = 16 * 1024;

const json = (res: ServerResponse, status: number, body: unknown) =>
  void res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));

function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => ((size += chunk.length) > MAX_FORM_BYTES ? resolve(undefined) : chunks.push(chunk)));
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

/** The client's id and secret, from HTTP Basic or the form (client_secret_basic, client_secret_post, none). */
function clientOf(req: IncomingMessage, form: URLSearchParams): { id?: string; secret?: string } {
  const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (basic) {
    const [id, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':').map((part) => decodeURIComponent(part));
    return { ...(id ? { id } : {}), ...(secret ? { secret } : {}) };
  }
  return { ...(form.get('client_id') ? { id: form.get('client_id')! } : {}), ...(form.get('client_secret') ? { secret: form.get('client_secret')! } : {}) };
}

/**
 * The chaos server as an OAuth protected resource, with a minimal authorization server of its own
 * on the same origin: protected resource metadata, authorization server metadata, and a token
 * endpoint that grants `client_credentials` and `refresh_token` (refresh tokens are not rotated:
 * two refreshes at once both succeed). Access tokens live until {@link expireAccessTokens}, which
 * the check calls at a scenario's fault point, never by the clock. Tokens appear only here and in
 * the client's context; the wire ledger names them by {@link tagOf}.
 *
 * @example
 * const auth = new ProtectedResource('auth-first');
 * const chaos = await startChaosServer({ auth });
 * const { accessToken, refreshToken } = auth.issue(); // the pair the client starts with
 * auth.expireAccessTokens(); // now every request with accessToken gets 401
 */
export class ProtectedResource {
  /** The client the token endpoint knows (its secret travels in the client's context only). */
  readonly clientId = 'mcp-churn-check';
  readonly clientSecret = `churn-cs-${randomBytes(12).toString('hex')}`;
  readonly #access = new Map<string, number>();
  readonly #refresh = new Set<string>();
  /** Access tokens issued before this ordinal have expired. */
  #validFrom = 1;

  constructor(readonly order: AuthOrder) {}

  /**
   * Issues an access token (the next ordinal) and a refresh token.
   *
   * @example
   * new ProtectedResource('session-first').issue().accessToken; // 'churn-at-…'
   */
  issue(): TokenPair {
    const accessToken = `churn-at-${randomBytes(16).toString('hex')}`;
    const refreshToken = `churn-rt-${randomBytes(16).toString('hex')}`;
    this.#access.set(accessToken, this.#access.size + 1);
    this.#refresh.add(refreshToken);
    return { accessToken, refreshToken };
  }

  /**
   * Text with every credential of this kind (access and refresh tokens, the client secret, or any
   * part of one that survived a clip) replaced by its prefix and `[redacted]`: what the check's
   * reports print of what a client said.
   *
   * @example
   * ProtectedResource.redact('401 with churn-at-5f3e…'); // '401 with churn-at-[redacted]'
   */
  static redact(text: string): string {
    return text.replace(/churn-(at|rt|cs)-[0-9a-f]+/g, 'churn-$1-[redacted]');
  }

  /**
   * Ends every access token issued so far (refresh tokens keep working).
   *
   * @example
   * auth.expireAccessTokens();
   */
  expireAccessTokens(): void {
    this.#validFrom = this.#access.size + 1;
  }

  /**
   * Names the bearer token of an `Authorization` header by when it was issued (`t1`, `t2`, …; `t?`
   * for one this server never issued; undefined without one): what the wire ledger records instead of the token.
   *
   * @example
   * auth.tagOf(`Bearer ${auth.issue().accessToken}`); // 't1'
   */
  tagOf(authorization: string | undefined): string | undefined {
    const token = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1]?.trim();
    if (token === undefined) return undefined;
    const ordinal = this.#access.get(token);
    return ordinal === undefined ? 't?' : `t${ordinal}`;
  }

  /**
   * The 401 for a request whose bearer token is missing, unknown or expired (as the SDK's
   * `requireBearerAuth` answers it), or undefined when the token is good.
   *
   * @example
   * auth.challenge(req.headers.authorization, 'http://127.0.0.1:3001')?.status; // 401
   */
  challenge(authorization: string | undefined, origin: string): CannedResponse | undefined {
    const ordinal = this.tagOf(authorization);
    const n = ordinal === undefined || ordinal === 't?' ? 0 : Number(ordinal.slice(1));
    if (n >= this.#validFrom) return undefined;
    const description = ordinal === undefined ? 'Missing Authorization header' : n ? 'Token has expired' : 'Invalid token';
    return {
      status: 401,
      headers: {
        'content-type': 'application/json',
        'www-authenticate': `Bearer error="invalid_token", error_description="${description}", resource_metadata="${origin}${RESOURCE_METADATA_PATH}"`,
      },
      body: JSON.stringify({ error: 'invalid_token', error_description: description }),
    };
  }

  /**
   * Serves the metadata documents and the token endpoint; undefined (at once, nothing read) for any
   * other path, so the caller can still read that request's body.
   *
   * @example
   * const served = auth.serve(path, req, res, 'http://127.0.0.1:3001');
   * if (served) return served;
   */
  serve(path: string, req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> | undefined {
    if (path === RESOURCE_METADATA_PATH && req.method === 'GET') {
      return Promise.resolve(json(res, 200, { resource: `${origin}/mcp`, authorization_servers: [origin], bearer_methods_supported: ['header'] }));
    }
    if (path === AS_METADATA_PATH && req.method === 'GET') {
      return Promise.resolve(json(res, 200, {
        issuer: origin, authorization_endpoint: `${origin}/authorize`, token_endpoint: `${origin}${TOKEN_PATH}`,
        response_types_supported: ['code'], grant_types_supported: ['client_credentials', 'refresh_token'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      }));
    }
    if (path !== TOKEN_PATH) return undefined;
    if (req.method !== 'POST') return Promise.resolve(json(res, 405, { error: 'invalid_request', error_description: 'POST the form' }));
    return readForm(req).then((form) => json(res, ...this.#grant(req, form)));
  }

  #grant(req: IncomingMessage, form: URLSearchParams | undefined): [number, unknown] {
    if (!form) return [400, { error: 'invalid_request', error_description: 'form over 16 KiB' }];
    const client = clientOf(req, form);
    if (client.id !== this.clientId || client.secret !== this.clientSecret) return [401, { error: 'invalid_client' }];
    const grant = form.get('grant_type');
    if (grant === 'refresh_token' && !this.#refresh.has(form.get('refresh_token') ?? '')) return [400, { error: 'invalid_grant' }];
    if (grant !== 'refresh_token' && grant !== 'client_credentials') return [400, { error: 'unsupported_grant_type' }];
    const pair = this.issue();
    const refreshToken = grant === 'refresh_token' ? form.get('refresh_token')! : pair.refreshToken;
    return [200, { access_token: pair.accessToken, token_type: 'Bearer', expires_in: 3600, refresh_token: refreshToken }];
  }
}
