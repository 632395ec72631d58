import { createHash, randomBytes } from 'node:crypto';
import type { OAuthClientInformationFull, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { AuthorizationServer } from './authorization-server.ts';

/** Where the authorization server sends the browser back; the test reads the code off the redirect. */
export const REDIRECT_URL = 'http://127.0.0.1/oauth/callback';

/** The metadata the test's client registers with (a public client: PKCE, no secret). */
export const CLIENT_METADATA: OAuthClientMetadata = {
  client_name: 'auth-conformance',
  redirect_uris: [REDIRECT_URL],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
};

/**
 * Where stored credentials say they come from, as each SDK's own flow stamps them: `issuer` (SDK
 * 1.x and 2.x discard credentials of another issuer), `authorization_server` and `token_endpoint`
 * (`@ai-sdk/mcp` clears tokens without them instead of refreshing).
 */
export interface AuthorizationServerBinding {
  readonly issuer: string;
  readonly authorization_server: string;
  readonly token_endpoint: string;
}

/** A registered client and its first tokens, bound to the authorization server that issued them. */
export interface FirstTokens {
  readonly clientInformation: OAuthClientInformationFull & AuthorizationServerBinding;
  readonly tokens: OAuthTokens & AuthorizationServerBinding;
}

/**
 * The binding of credentials issued by `as`.
 *
 * @example
 * bindingOf(as); // { issuer: 'http://127.0.0.1:40123/', authorization_server: '…', token_endpoint: 'http://127.0.0.1:40123/token' }
 */
export function bindingOf(as: AuthorizationServer): AuthorizationServerBinding {
  return { issuer: as.issuer, authorization_server: as.issuer, token_endpoint: as.metadata.token_endpoint };
}

function base64url(bytes: Buffer): string {
  return bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function expectOk(response: Response, step: string): Promise<unknown> {
  if (!response.ok) throw new Error(`${step}: HTTP ${response.status} ${await response.text()}`);
  return response.json();
}

/**
 * Gets a client its first tokens through the authorization server's real endpoints, as a user's
 * browser would: dynamic registration, `/authorize` with PKCE (approved at once; the code is read
 * off the redirect), then the authorization-code grant at `/token` for `resource`.
 *
 * @example
 * const { clientInformation, tokens } = await obtainFirstTokens(as, server.url);
 * tokens.access_token; // 'at-1'
 */
export async function obtainFirstTokens(as: AuthorizationServer, resource: string): Promise<FirstTokens> {
  const { metadata } = as;
  const registered = (await expectOk(
    await fetch(metadata.registration_endpoint!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CLIENT_METADATA) }),
    'register',
  )) as OAuthClientInformationFull;

  const verifier = base64url(randomBytes(32));
  const challenge = base64url(createHash('sha256').update(verifier).digest());
  const authorize = new URL(metadata.authorization_endpoint);
  authorize.search = new URLSearchParams({
    response_type: 'code', client_id: registered.client_id, redirect_uri: REDIRECT_URL, code_challenge: challenge,
    code_challenge_method: 'S256', state: 'first', resource,
  }).toString();
  const redirect = await fetch(authorize, { redirect: 'manual' });
  const code = new URL(redirect.headers.get('location') ?? 'http://invalid/').searchParams.get('code');
  if (redirect.status !== 302 || !code) throw new Error(`authorize: HTTP ${redirect.status}, no code`);

  const tokens = (await expectOk(
    await fetch(metadata.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: registered.client_id, redirect_uri: REDIRECT_URL, resource }),
    }),
    'token',
  )) as OAuthTokens;
  return { clientInformation: { ...registered, ...bindingOf(as) }, tokens: { ...tokens, ...bindingOf(as) } };
}
