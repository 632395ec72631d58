import {
  Client, OAuthError, refreshAuthorization, SdkHttpError, StreamableHTTPClientTransport, UnauthorizedError, type AuthProvider,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { textOf, type AuthedClient, type ClientFlavour, type ConnectSetup } from './authed-client.ts';
import { bindingOf } from './first-tokens.ts';
import type { MemoryOAuthClientProvider } from './memory-oauth-client-provider.ts';

async function connectV2(url: string, authProvider: AuthProvider | OAuthClientProvider, fetch: typeof globalThis.fetch): Promise<AuthedClient> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider, fetch });
  const client = new Client({ name: 'auth-conformance-2x', version: '0.0.0' });
  await client.connect(transport);
  return {
    echo: async (text) => textOf(await client.callTool({ name: 'echo', arguments: { text } })),
    close: () => client.close(),
  };
}

/**
 * An application's minimal `AuthProvider` over its stored credentials: `token()` reads the access
 * token; `onUnauthorized()` refreshes at the real token endpoint with the SDK's
 * `refreshAuthorization` (one refresh at a time: a 401 that arrives while a refresh runs waits
 * for it) and saves the rotated tokens.
 *
 * @example
 * const authProvider = refreshingAuthProvider({ credentials, authorizationServer: as });
 * new StreamableHTTPClientTransport(new URL(url), { authProvider, fetch });
 */
export function refreshingAuthProvider({ credentials, authorizationServer }: Pick<ConnectSetup, 'credentials' | 'authorizationServer'>): AuthProvider {
  let refreshing: Promise<void> | undefined;
  const refresh = async (fetchFn: Parameters<NonNullable<AuthProvider['onUnauthorized']>>[0]['fetchFn']) => {
    const tokens = credentials.tokens();
    const clientInformation = credentials.clientInformation();
    if (!tokens?.refresh_token || !clientInformation) throw new UnauthorizedError('No refresh token');
    const rotated = await refreshAuthorization(authorizationServer.issuer, { clientInformation, refreshToken: tokens.refresh_token, fetchFn });
    credentials.saveTokens({ ...rotated, ...bindingOf(authorizationServer) });
  };
  return {
    token: async () => credentials.tokens()?.access_token,
    onUnauthorized: async ({ fetchFn }) => {
      refreshing ??= refresh(fetchFn).finally(() => (refreshing = undefined));
      await refreshing;
    },
  };
}

/**
 * SDK 2.x (`@modelcontextprotocol/client`) with a minimal `AuthProvider`
 * ({@link refreshingAuthProvider}); the transport calls `onUnauthorized()` on a 401 and sends the
 * request once more.
 *
 * @example
 * const client = await SDK2_AUTH_PROVIDER.connect({ url, credentials, authorizationServer: as, fetch: createResilientFetch({ renewsCredentials: true }) });
 */
export const SDK2_AUTH_PROVIDER: ClientFlavour = {
  name: 'SDK 2.x Client + AuthProvider',
  connect: ({ url, credentials, authorizationServer, fetch }) => connectV2(url, refreshingAuthProvider({ credentials, authorizationServer }), fetch),
  isAuthError: (error) => error instanceof UnauthorizedError || error instanceof SdkHttpError || error instanceof OAuthError,
};

/**
 * SDK 2.x with the application's `OAuthClientProvider`, which the transport adapts
 * (`adaptOAuthProvider`): a 401 runs the SDK's `auth()`, which refreshes at the token endpoint.
 *
 * @example
 * const client = await SDK2_OAUTH.connect({ url, credentials, authorizationServer: as, fetch: createResilientFetch({ renewsCredentials: true }) });
 */
export const SDK2_OAUTH: ClientFlavour = {
  name: 'SDK 2.x Client + OAuthClientProvider',
  connect: ({ url, credentials, fetch }) => connectV2(url, credentials as MemoryOAuthClientProvider & OAuthClientProvider, fetch),
  isAuthError: (error) => error instanceof UnauthorizedError || error instanceof SdkHttpError,
};
