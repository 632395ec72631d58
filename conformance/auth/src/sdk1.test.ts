import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { describeAuthChurn } from './support/describe-auth-churn.ts';
import { describePlainSdk } from './support/describe-plain-sdk.ts';
import { SDK1_OAUTH } from './support/sdk1-client.ts';

// What SDK 1.x does with 20 concurrent 401s (plain, measured below): every 401 runs its own
// `auth()` and its own refresh; with rotating refresh tokens all but the first are refused
// (invalid_grant → tokens invalidated → a redirect nobody follows → UnauthorizedError, or
// "401 after successful authentication"): 13 to 19 of the 20 calls failed in our runs, with
// 1 to 7 refresh grants. Through the engine, one call gets the 401 and the others wait for the
// new token: one refresh grant, all 20 answered, in both orders.
describeAuthChurn(SDK1_OAUTH, { refreshGrants: { 'auth-first': 1, 'session-first': 1 } });

describePlainSdk(SDK1_OAUTH, {
  // SDK 1.x keeps the dead session id: the 404 surfaces as a StreamableHTTPError, and every later call fails the same way.
  isSessionGoneError: (error) => error instanceof StreamableHTTPError && error.code === 404,
  concurrent401s: 'some refused',
  // Lost the refresh race: invalid_grant as such, the redirect nobody follows, or the transport's circuit breaker.
  isRefusedError: (error) =>
    error instanceof UnauthorizedError || error instanceof OAuthError || (error instanceof StreamableHTTPError && error.code === 401),
});
