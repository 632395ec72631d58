import { MCPClientError } from '@ai-sdk/mcp';
import { describeAuthChurn } from './support/describe-auth-churn.ts';
import { describePlainSdk } from './support/describe-plain-sdk.ts';
import { AI_SDK_OAUTH } from './support/ai-sdk-client.ts';

// The AI SDK shares one OAuth recovery among the 401s that arrive while it runs (`authorizeOnce`):
// plain, 20 concurrent 401s are all answered, after 1 to 3 refresh grants in our runs (a 401
// arriving after a recovery ended starts another; measured below, count not asserted). Through the
// engine only one call gets the 401, the others wait for the new token: one refresh, in both orders.
describeAuthChurn(AI_SDK_OAUTH, { refreshGrants: { 'auth-first': 1, 'session-first': 1 } });

describePlainSdk(AI_SDK_OAUTH, {
  // On a 404 the AI SDK drops the session id and throws, telling the application to create a new client.
  isSessionGoneError: (error) => error instanceof MCPClientError,
  concurrent401s: 'all answered',
});
