import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { TokenLedger } from './token-ledger.ts';

interface PendingCode {
  readonly clientId: string;
  readonly challenge: string;
  readonly scopes: string[];
  readonly resource: URL | undefined;
}

/** Dynamic client registration kept in a map. */
class InMemoryClientsStore implements OAuthRegisteredClientsStore {
  readonly #clients = new Map<string, OAuthClientInformationFull>();

  getClient(clientId: string): OAuthClientInformationFull | undefined {
    return this.#clients.get(clientId);
  }

  registerClient(client: Omit<OAuthClientInformationFull, 'client_id' | 'client_id_issued_at'>): OAuthClientInformationFull {
    const full = { ...client, client_id: `client-${randomUUID()}`, client_id_issued_at: Math.floor(Date.now() / 1000) };
    this.#clients.set(full.client_id, full);
    return full;
  }
}

/**
 * The SDK 1.x `OAuthServerProvider` of the test's authorization server: dynamic registration,
 * authorization code + PKCE approved at once (the redirect carries the code), refresh tokens that
 * rotate, and access tokens judged by the {@link TokenLedger}'s clock, which the test owns.
 *
 * @example
 * const provider = new InMemoryOAuthProvider();
 * app.use(mcpAuthRouter({ provider, issuerUrl }));
 * provider.ledger.expireAccessTokens(); // every access token issued so far is now refused
 */
export class InMemoryOAuthProvider implements OAuthServerProvider {
  readonly ledger = new TokenLedger();
  readonly clientsStore = new InMemoryClientsStore();
  readonly #codes = new Map<string, PendingCode>();

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const code = `code-${randomUUID()}`;
    this.#codes.set(code, { clientId: client.client_id, challenge: params.codeChallenge, scopes: params.scopes ?? [], resource: params.resource });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(302, target.href);
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, authorizationCode: string): Promise<string> {
    const pending = this.#codes.get(authorizationCode);
    if (!pending || pending.clientId !== client.client_id) throw new InvalidGrantError('unknown authorization code');
    return pending.challenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, authorizationCode: string): Promise<OAuthTokens> {
    const pending = this.#codes.get(authorizationCode);
    if (!pending || pending.clientId !== client.client_id) throw new InvalidGrantError('unknown authorization code');
    this.#codes.delete(authorizationCode);
    this.ledger.counters.codeGrants += 1;
    return this.ledger.issue(client.client_id, pending.scopes, pending.resource);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const tokens = this.ledger.rotate(client.client_id, refreshToken);
    if (!tokens) throw new InvalidGrantError('refresh token spent, revoked or unknown');
    return tokens;
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const facts = this.ledger.verify(token);
    if (!facts) throw new InvalidTokenError('Token has expired');
    return { token, clientId: facts.clientId, scopes: facts.scopes, expiresAt: facts.expiresAt, ...(facts.resource ? { resource: facts.resource } : {}) };
  }
}
