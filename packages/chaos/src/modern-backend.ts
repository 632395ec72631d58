import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, type McpHandlerRequestOptions } from '@modelcontextprotocol/server';
import type { Backend, BackendContext } from './backend.ts';
import { toWebRequest, writeJsonRpcError } from './modern-http.ts';
import { createModernServer } from './modern-server.ts';
import { RESOURCE_URI } from './resource.ts';
import { writeWebResponse } from './web-response.ts';

/** 2026-07-28 has no sessions: the backend never passes a session id on. */
const NO_SESSION_HEADER = new Set(['mcp-session-id']);

/** An AbortController that fires when the client goes away before the response finished. */
function abortOnDisconnect(res: ServerResponse): AbortController {
  const abort = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  return abort;
}

/** The body as the SDK's `parsedBody` option: only a parsed JSON value, never raw text. */
function parsedBodyOption(body: unknown): McpHandlerRequestOptions {
  return body === undefined || typeof body === 'string' ? {} : { parsedBody: body };
}

/**
 * The 2026-07-28 ("modern", sessionless) backend, served by the newer SDK line
 * (`@modelcontextprotocol/server`): `createMcpHandler` in modern-only mode (`legacy: 'reject'`)
 * with a fresh `McpServer` per request. The SDK itself answers the protocol: POST only
 * (GET/DELETE → 405), the `MCP-Protocol-Version` / `Mcp-Method` / `Mcp-Name` headers and
 * their cross-checks with the `_meta` envelope (`-32020`), unsupported versions (`-32022`
 * with `data.supported`), `server/discover`, unknown methods (404 `-32601`), progress and
 * logging over a per-request SSE upgrade, and `subscriptions/listen` streams. This backend
 * only adapts Node's request/response to the SDK's `Request → Response` face, strips any
 * `Mcp-Session-Id` both ways, aborts the exchange when the client disconnects (closing the
 * stream is cancellation in this revision), and publishes `chaos://counter` changes to
 * listen streams. There are no sessions, so `dropSession`/`dropAll` do nothing.
 *
 * @example
 * const backend = createModernBackend({ ledger: new ExecutionLedger(), resource: new ChangeableResource(), tasks: new TaskJobs(), clock: REAL_CLOCK });
 * http.createServer(async (req, res) => backend.handle(req, res, await readJson(req)));
 */
export function createModernBackend(context: BackendContext): Backend {
  const handler = createMcpHandler(() => createModernServer(context), { legacy: 'reject' });
  const stopPublishing = context.resource.onChange(() => handler.notify.resourceUpdated(RESOURCE_URI));
  let closed = false;

  async function handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (closed) return writeJsonRpcError(res, 503, -32000, 'Server is closed');
    const abort = abortOnDisconnect(res);
    try {
      const response = await handler.fetch(toWebRequest(req, body, abort.signal), parsedBodyOption(body));
      await writeWebResponse(res, response, NO_SESSION_HEADER);
    } catch {
      writeJsonRpcError(res, 500, -32603, 'Internal server error');
    }
  }

  return {
    mode: 'modern',
    handle,
    dropSession: async () => undefined,
    dropAll: async () => undefined,
    async close() {
      if (closed) return;
      closed = true;
      stopPublishing();
      await handler.close();
    },
  };
}
