// The SDK auth provider of the churn check's protected scenarios (docs/churn-check.md), for the SDK
// clients of both lines: an OAuth client provider that starts with the context's tokens. When a
// request is answered 401, the SDK finds the token endpoint by the server's metadata and refreshes
// the token there with the refresh token (no browser: a refused refresh fails the call).
import { context } from './workload.mjs';

const CALLBACK = 'http://127.0.0.1/never-visited';

/**
 * The provider for the transport's `authProvider`, or undefined when the scenario's server is not protected.
 *
 * @example
 * new StreamableHTTPClientTransport(new URL(url), { authProvider: authProvider() });
 */
export function authProvider() {
  const { auth } = context;
  if (!auth) return undefined;
  let client = { client_id: auth.clientId, client_secret: auth.clientSecret };
  let tokens = { access_token: auth.accessToken, token_type: 'Bearer', refresh_token: auth.refreshToken };
  return {
    // A redirect URL makes the SDK refresh with the refresh token (it would ask for client credentials without one).
    get redirectUrl() { return CALLBACK; },
    get clientMetadata() {
      return { client_name: 'churn-check', redirect_uris: [CALLBACK], grant_types: ['refresh_token'], token_endpoint_auth_method: 'client_secret_basic' };
    },
    clientInformation: () => client,
    saveClientInformation: (information) => void (client = information),
    tokens: () => tokens,
    saveTokens: (saved) => void (tokens = saved),
    redirectToAuthorization: () => { throw new Error('the token could not be refreshed, and this client has no browser to log in with'); },
    saveCodeVerifier: () => {},
    codeVerifier: () => { throw new Error('no authorization code flow here'); },
  };
}
