import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * CORS on the MCP endpoint, for any page: the headers a client sends, and those it may read
 * (`Mcp-Session-Id` unless `exposeSessionId` is false, the common mistake reproduced;
 * `WWW-Authenticate` when the endpoint is a protected resource).
 *
 * @example
 * setMcpCors(req, res, { exposeSessionId: false, bearerAuth: false }); // a page cannot read the session id
 */
export function setMcpCors(req: IncomingMessage, res: ServerResponse, options: { readonly exposeSessionId: boolean; readonly bearerAuth: boolean }): void {
  res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
  res.setHeader('vary', 'origin');
  res.setHeader('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS');
  res.setHeader('access-control-allow-headers',
    'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name');
  // Retry-After is not a CORS-safelisted response header: without it here a page backs off blind.
  const exposed = `${options.exposeSessionId ? 'mcp-session-id, ' : ''}mcp-protocol-version, retry-after${options.bearerAuth ? ', www-authenticate' : ''}`;
  res.setHeader('access-control-expose-headers', exposed);
}
