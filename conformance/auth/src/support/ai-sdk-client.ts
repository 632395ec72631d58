import { createMCPClient, UnauthorizedError, type OAuthClientProvider } from '@ai-sdk/mcp';
import { textOf, type ClientFlavour } from './authed-client.ts';

/**
 * The Vercel AI SDK: `createMCPClient({ transport: { type: 'http', url, authProvider, fetch } })`,
 * its own Streamable HTTP transport, which on 401s runs one OAuth recovery (its `auth()`) for all
 * concurrent requests.
 *
 * @example
 * const client = await AI_SDK_OAUTH.connect({ url, credentials, authorizationServer: as, fetch: createResilientFetch({ renewsCredentials: true }) });
 */
export const AI_SDK_OAUTH: ClientFlavour = {
  name: '@ai-sdk/mcp createMCPClient + OAuthClientProvider',
  async connect({ url, credentials, fetch }) {
    const client = await createMCPClient({
      transport: { type: 'http', url, authProvider: credentials as unknown as OAuthClientProvider, fetch },
    });
    return {
      echo: async (text) => textOf(await client.callTool({ name: 'echo', arguments: { text } })),
      close: () => client.close(),
    };
  },
  isAuthError: (error) => error instanceof UnauthorizedError,
};
