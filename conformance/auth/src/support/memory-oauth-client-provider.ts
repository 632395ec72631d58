import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { CLIENT_METADATA, REDIRECT_URL, type FirstTokens } from './first-tokens.ts';

/**
 * An application's `OAuthClientProvider` kept in memory, seeded with tokens already obtained:
 * the SDK reads `tokens()` before each request and, on a 401, refreshes through `auth()` and
 * `saveTokens()`. A flow that would need the user (`redirectToAuthorization`) is only recorded:
 * nobody is there to approve it, so the SDK ends with its own auth error. Its shape is the same
 * for SDK 1.x, SDK 2.x and `@ai-sdk/mcp`.
 *
 * @example
 * const provider = new MemoryOAuthClientProvider(await obtainFirstTokens(as, server.url));
 * new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider, fetch: createResilientFetch({ renewsCredentials: true }) });
 */
export class MemoryOAuthClientProvider implements OAuthClientProvider {
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier = '';
  /** Every token set saved (a refresh, through the SDK or the application). */
  readonly saved: OAuthTokens[] = [];
  /** Every authorization URL the SDK wanted the user sent to. */
  readonly redirects: URL[] = [];

  constructor(first: FirstTokens) {
    this.#client = first.clientInformation;
    this.#tokens = first.tokens;
  }

  get redirectUrl(): string {
    return REDIRECT_URL;
  }

  get clientMetadata() {
    return CLIENT_METADATA;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.#client;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.#client = information;
  }

  tokens(): OAuthTokens | undefined {
    return this.#tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.#tokens = tokens;
    this.saved.push(tokens);
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.redirects.push(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#verifier = codeVerifier;
  }

  codeVerifier(): string {
    return this.#verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.#tokens = undefined;
    if (scope === 'all' || scope === 'client') this.#client = undefined;
  }
}
