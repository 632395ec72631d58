/**
 * The "session gone" dialects the chaos server can speak (rows of mcp-facts.md §3). The last four
 * are answers measured byte for byte on real servers by `conformance/real-servers` (its fixture
 * `src/fixtures/dead-session-answers.json` checks them against these).
 */
export const DIALECT_NAMES = [
  'amdahl', 'typescript-sdk', 'python-sdk', 'go-sdk', 'express-400',
  'server-everything', 'typescript-sdk-express', 'typescript-sdk-uninitialized', 'mcp-proxy',
] as const;

/**
 * A server's way of saying "session not found", by the server it copies.
 *
 * @example
 * const dialect: DialectName = 'python-sdk';
 */
export type DialectName = (typeof DIALECT_NAMES)[number];

/** An HTTP response to write as it is. */
export interface CannedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const EXPRESS_JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

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
    // Measured 2026-12-01 on @modelcontextprotocol/server-everything 2026.8.31 (POST and GET): no `id` member.
    case 'server-everything':
      return { status: 400, headers: EXPRESS_JSON_TYPE, body: '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"}}' };
    // Measured on the SDK 1.32.2 example simpleStreamableHttp and the SDK 2.4.0 guide's session map (Express `res.json`).
    case 'typescript-sdk-express':
      return { status: 404, headers: EXPRESS_JSON_TYPE, body: '{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}' };
    // Measured on the SDK 1.32.2 server with one transport for the whole process (and @hono/mcp 0.3.2
    // with sessionIdGenerator) after a restart: the transport's "not initialized" check, on every request.
    case 'typescript-sdk-uninitialized':
      return { status: 400, headers: JSON_TYPE, body: '{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}' };
    // Measured on mcp-proxy 6.7.19 and fastmcp 4.20.16 (whose HTTP server is mcp-proxy's): its own key order.
    case 'mcp-proxy':
      return { status: 404, headers: EXPRESS_JSON_TYPE, body: '{"error":{"code":-32001,"message":"Session not found"},"id":null,"jsonrpc":"2.0"}' };
  }
}
