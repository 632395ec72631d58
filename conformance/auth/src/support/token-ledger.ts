import { randomUUID } from 'node:crypto';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** How long the tokens say they live; validity is decided by the test's clock, not by this. */
const ADVERTISED_LIFETIME_SECONDS = 3600;

/** What the authorization server has served since the last reset: the figures tests assert. */
export interface TokenCounters {
  /** Refresh grants that succeeded (a new access token and a new refresh token). */
  refreshGrants: number;
  /** Refresh grants refused (`invalid_grant`: used, revoked or unknown refresh token). */
  refusedRefreshGrants: number;
  /** Authorization-code grants that succeeded. */
  codeGrants: number;
  /** Access tokens issued, by any grant. */
  tokensIssued: number;
}

interface AccessToken {
  readonly clientId: string;
  readonly scopes: string[];
  readonly resource: URL | undefined;
  expired: boolean;
}

interface RefreshToken {
  readonly clientId: string;
  readonly scopes: string[];
  readonly resource: URL | undefined;
  spent: boolean;
}

/** Creates zeroed counters. */
function zeroCounters(): TokenCounters {
  return { refreshGrants: 0, refusedRefreshGrants: 0, codeGrants: 0, tokensIssued: 0 };
}

/**
 * The authorization server's token book, on a clock the test owns: access tokens are valid until
 * the test calls {@link TokenLedger.expireAccessTokens}; refresh tokens rotate (each works once)
 * until spent or revoked. Access tokens are named `at-1`, `at-2`, … so wire traces read plainly.
 *
 * @example
 * const ledger = new TokenLedger();
 * const tokens = ledger.issue('client-1', [], undefined);     // { access_token: 'at-1', refresh_token: 'rt-…' }
 * ledger.expireAccessTokens();                                 // at-1 is now refused by verify()
 * ledger.rotate('client-1', tokens.refresh_token!);            // at-2; the old refresh token is spent
 */
export class TokenLedger {
  readonly counters: TokenCounters = zeroCounters();
  readonly #access = new Map<string, AccessToken>();
  readonly #refresh = new Map<string, RefreshToken>();
  #issued = 0;

  /** Issues an access token and a refresh token. */
  issue(clientId: string, scopes: string[], resource: URL | undefined): OAuthTokens {
    const accessToken = `at-${++this.#issued}`;
    const refreshToken = `rt-${this.#issued}-${randomUUID()}`;
    this.#access.set(accessToken, { clientId, scopes, resource, expired: false });
    this.#refresh.set(refreshToken, { clientId, scopes, resource, spent: false });
    this.counters.tokensIssued += 1;
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: ADVERTISED_LIFETIME_SECONDS,
      refresh_token: refreshToken,
      ...(scopes.length > 0 ? { scope: scopes.join(' ') } : {}),
    };
  }

  /** Spends a refresh token and issues new tokens; undefined when it is unknown, spent, revoked or another client's. */
  rotate(clientId: string, refreshToken: string): OAuthTokens | undefined {
    const entry = this.#refresh.get(refreshToken);
    if (!entry || entry.spent || entry.clientId !== clientId) {
      this.counters.refusedRefreshGrants += 1;
      return undefined;
    }
    entry.spent = true;
    this.counters.refreshGrants += 1;
    return this.issue(clientId, entry.scopes, entry.resource);
  }

  /** The live access token's facts, or undefined when it is unknown or expired. */
  verify(accessToken: string): { clientId: string; scopes: string[]; resource: URL | undefined; expiresAt: number } | undefined {
    const entry = this.#access.get(accessToken);
    if (!entry || entry.expired) return undefined;
    // requireBearerAuth compares expiresAt with Date.now(): report a far future, the test's clock decides.
    return { clientId: entry.clientId, scopes: entry.scopes, resource: entry.resource, expiresAt: Math.floor(Date.now() / 1000) + ADVERTISED_LIFETIME_SECONDS };
  }

  /** The test's clock moves past every access token issued so far. */
  expireAccessTokens(): void {
    for (const entry of this.#access.values()) entry.expired = true;
  }

  /** Every refresh token issued so far stops working: the next refresh is refused. */
  revokeRefreshTokens(): void {
    for (const entry of this.#refresh.values()) entry.spent = true;
  }

  /** Zeroes the counters (tokens stay as they are). */
  resetCounters(): void {
    Object.assign(this.counters, zeroCounters());
  }
}
