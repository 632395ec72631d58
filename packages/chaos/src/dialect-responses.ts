/** The "session gone" dialects the chaos server can speak (rows of mcp-facts.md §3). */
export const DIALECT_NAMES = ['amdahl', 'typescript-sdk', 'python-sdk', 'go-sdk', 'express-400'] as const;

export type DialectName = (typeof DIALECT_NAMES)[number];

/** An HTTP response to write as it is. */
export interface CannedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const JSON_TYPE = { 'content-type': 'application/json' };

/**
 * The response a server of that dialect gives to a request carrying a session id it does
 * not have, byte for byte as the real servers send it (the TypeScript SDK's Node transport
 * sets no content type; Express adds a charset; Go's http.Error adds a newline).
 *
 * @example
 * sessionGoneResponse('amdahl', { requestId: 12, uptimeSeconds: 47 }).status // 404
 */
export function sessionGoneResponse(
  dialect: DialectName,
  { requestId, uptimeSeconds }: { readonly requestId: unknown; readonly uptimeSeconds: number },
): CannedResponse {
  switch (dialect) {
    case 'amdahl':
      return {
        status: 404, headers: JSON_TYPE,
        body: JSON.stringify({
          jsonrpc: '2.0',
          error: {
            code: -32000, message: 'Session not found. Please reinitialize.',
            data: { reason: 'session_not_found', action: 'reinitialize_and_replay_once', server_uptime_seconds: uptimeSeconds },
          },
          id: requestId ?? null,
        }),
      };
    case 'typescript-sdk':
      return { status: 404, headers: {}, body: '{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}' };
    case 'python-sdk':
      return { status: 404, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Session not found"}}' };
    case 'go-sdk':
      return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' }, body: 'session not found\n' };
    case 'express-400':
      return {
        status: 400, headers: { 'content-type': 'application/json; charset=utf-8' },
        body: '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}',
      };
  }
}
