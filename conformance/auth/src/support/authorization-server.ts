import express from 'express';
import { createOAuthMetadata, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { OAuthTokenVerifier } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { InMemoryOAuthProvider } from './in-memory-oauth-provider.ts';
import { listen } from './listen.ts';
import type { TokenCounters } from './token-ledger.ts';
import type { WireEntry } from './wire-log.ts';

/** A running authorization server and the test's hands on it. */
export interface AuthorizationServer {
  /** The issuer, e.g. `http://127.0.0.1:40123/` (what protected-resource metadata names). */
  readonly issuer: string;
  /** Its RFC 8414 metadata (endpoints), for the MCP servers' protected-resource metadata. */
  readonly metadata: OAuthMetadata;
  readonly counters: Readonly<TokenCounters>;
  /** How a resource server in this process checks an access token (as token introspection would). */
  readonly verifier: OAuthTokenVerifier;
  /** The test's clock moves past every access token issued so far. */
  expireAccessTokens(): void;
  /** Makes refresh impossible: every refresh token issued so far is refused. */
  revokeRefreshTokens(): void;
  /** Zeroes the counters between tests. */
  resetCounters(): void;
  /**
   * Holds the next refresh at the token endpoint until the test releases it: `started` resolves
   * once a client's refresh has arrived (a renewal is under way), `release` lets it be answered.
   */
  holdNextRefresh(): { readonly started: Promise<void>; release(): void };
  close(): Promise<void>;
}

/**
 * Starts a real OAuth authorization server on 127.0.0.1: the SDK 1.x's own `mcpAuthRouter`
 * (metadata, `/register`, `/authorize`, `/token`, `/revoke`) over an in-memory provider whose
 * access tokens live until the test expires them and whose refresh tokens rotate. Rate limits off.
 *
 * @example
 * const as = await startAuthorizationServer(wire); // its token requests are logged in `wire` too
 * as.expireAccessTokens();
 * as.counters.refreshGrants; // 0 until a client refreshes
 * await as.close();
 */
export async function startAuthorizationServer(wire: WireEntry[] = []): Promise<AuthorizationServer> {
  const provider = new InMemoryOAuthProvider();
  const app = express();
  let hold: { arrived(): void; released: Promise<void> } | undefined;
  app.use('/token', (_req, _res, next) => {
    const held = hold;
    hold = undefined;
    if (!held) return next();
    held.arrived();
    void held.released.then(() => next());
  });
  app.use('/token', (req, res, next) => {
    res.on('finish', () => {
      const grant = (req.body as { grant_type?: string } | undefined)?.grant_type ?? '?';
      wire.push({ http: 'POST', rpc: `/token ${grant}`, session: 'none', token: '-', status: res.statusCode });
    });
    next();
  });
  let issuerUrl: URL | undefined;
  // The issuer is known once the port is: the router is mounted lazily on the first request.
  let router: express.RequestHandler | undefined;
  app.use((req, res, next) => {
    router ??= mcpAuthRouter({
      provider,
      issuerUrl: issuerUrl!,
      authorizationOptions: { rateLimit: false },
      clientRegistrationOptions: { rateLimit: false },
      tokenOptions: { rateLimit: false },
      revocationOptions: { rateLimit: false },
    });
    router(req, res, next);
  });
  const listening = await listen(app);
  issuerUrl = new URL(`${listening.origin}/`);
  return {
    issuer: issuerUrl.href,
    metadata: createOAuthMetadata({ provider, issuerUrl }),
    counters: provider.ledger.counters,
    verifier: provider,
    expireAccessTokens: () => provider.ledger.expireAccessTokens(),
    revokeRefreshTokens: () => provider.ledger.revokeRefreshTokens(),
    resetCounters: () => provider.ledger.resetCounters(),
    holdNextRefresh: () => {
      let arrived!: () => void, release!: () => void;
      const started = new Promise<void>((resolve) => (arrived = resolve));
      hold = { arrived, released: new Promise<void>((resolve) => (release = resolve)) };
      return { started, release };
    },
    close: listening.close,
  };
}
