import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { textOf, type ClientFlavour } from './authed-client.ts';

/**
 * SDK 1.x: `Client` + `StreamableHTTPClientTransport` with the application's
 * `OAuthClientProvider` (`authProvider`); on a 401 the transport runs the SDK's `auth()`, which
 * refreshes at the token endpoint, and sends the request again.
 *
 * @example
 * const client = await SDK1_OAUTH.connect({ url, credentials, authorizationServer: as, fetch: createResilientFetch({ renewsCredentials: true }) });
 * await client.echo('hi'); // 'echo: hi'
 */
export const SDK1_OAUTH: ClientFlavour = {
  name: 'SDK 1.x Client + OAuthClientProvider',
  async connect({ url, credentials, fetch }) {
    const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: credentials, fetch });
    const client = new Client({ name: 'auth-conformance-1x', version: '0.0.0' });
    await client.connect(transport);
    return {
      echo: async (text) => textOf(await client.callTool({ name: 'echo', arguments: { text } })),
      close: () => client.close(),
    };
  },
  isAuthError: (error) => error instanceof UnauthorizedError,
};
