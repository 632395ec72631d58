import { refreshAuthorization } from '@modelcontextprotocol/sdk/client/auth.js';
import type { AuthorizationServer } from './authorization-server.ts';
import { bindingOf } from './first-tokens.ts';
import type { MemoryOAuthClientProvider } from './memory-oauth-client-provider.ts';

/**
 * The application refreshes its tokens by itself (a timer before expiry, say), at the real token
 * endpoint, and saves the rotated set; returns the new access token.
 *
 * @example
 * const fresh = await refreshAsTheApplication(credentials, as); // 'at-3'
 */
export async function refreshAsTheApplication(credentials: MemoryOAuthClientProvider, as: AuthorizationServer): Promise<string> {
  const tokens = credentials.tokens();
  const clientInformation = credentials.clientInformation();
  if (!tokens?.refresh_token || !clientInformation) throw new Error('nothing to refresh with');
  const rotated = await refreshAuthorization(as.issuer, { metadata: as.metadata, clientInformation, refreshToken: tokens.refresh_token });
  credentials.saveTokens({ ...rotated, ...bindingOf(as) });
  return rotated.access_token;
}
