import { SdkHttpError } from '@modelcontextprotocol/client';
import { describeAuthChurn } from './support/describe-auth-churn.ts';
import { describePlainSdk } from './support/describe-plain-sdk.ts';
import { SDK2_AUTH_PROVIDER, SDK2_OAUTH } from './support/sdk2-client.ts';

// With a minimal AuthProvider, SDK 2.x calls onUnauthorized() once per 401: 20 concurrent 401s are
// 20 calls to it. This application's provider runs one refresh at a time (a 401 arriving while
// it runs waits for it), so plain it needs one refresh as long as the 401s arrive together (not
// asserted plain: a 401 arriving after the refresh ended would refresh again). Through the engine
// only one call gets the 401, the others wait for the new token: one refresh, in both orders.
describeAuthChurn(SDK2_AUTH_PROVIDER, { refreshGrants: { 'auth-first': 1, 'session-first': 1 } });

// With an OAuthClientProvider, SDK 2.x runs `auth()` once per 401: 20 concurrent 401s are 20
// refreshes with the same rotating refresh token; the first wins, the others get invalid_grant,
// invalidate the tokens and end in UnauthorizedError (19 of 20 calls failed in our runs, measured
// below). Through the engine: one refresh grant, all 20 answered, in both orders.
describeAuthChurn(SDK2_OAUTH, { refreshGrants: { 'auth-first': 1, 'session-first': 1 } });

describePlainSdk(SDK2_OAUTH, {
  // SDK 2.x keeps the dead session id too: the 404 surfaces as an SdkHttpError.
  isSessionGoneError: (error) => error instanceof SdkHttpError && (error as SdkHttpError & { data?: { status?: number } }).data?.status === 404,
  concurrent401s: 'some refused',
});
