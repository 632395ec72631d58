import type { IncomingHttpHeaders } from 'node:http';
import type { Backend } from './backend.ts';
import { writeWebResponse } from './web-response.ts';

// Hop-by-hop headers, and those fetch computes itself.
/** Ending a session upstream must not hang an eviction, a restart or a stop. */
const UPSTREAM_DELETE_TIMEOUT_MS = 5_000;
const NOT_FORWARDED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'te', 'trailer']);

function forwardHeaders(headers: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || NOT_FORWARDED.has(name)) continue;
    out.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return out;
}

/**
 * Puts the fault layer in front of another Streamable HTTP server: requests go to `upstream`
 * as they came, responses (JSON or SSE streams) come back as they are. The fault layer
 * learns sessions from the `Mcp-Session-Id` the upstream hands out; evicting one also ends
 * it upstream (DELETE), so the upstream frees it too.
 *
 * @example
 * const backend = createProxyBackend('http://127.0.0.1:3001/mcp', (id) => registry.add(id));
 */
export function createProxyBackend(upstream: string, onSessionStarted: (id: string) => void): Backend {
  const url = new URL(upstream);
  const known = new Set<string>();

  async function end(sessionId: string): Promise<void> {
    if (!known.delete(sessionId)) return; // ended already (the client's own DELETE went through)
    const signal = AbortSignal.timeout(UPSTREAM_DELETE_TIMEOUT_MS);
    await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId }, signal }).then((r) => r.body?.cancel(), () => {});
  }

  return {
    mode: 'proxy',
    async handle(req, res, body) {
      const abort = new AbortController();
      res.on('close', () => abort.abort());
      const sent = req.headers['mcp-session-id'];
      let response: Response;
      try {
        response = await fetch(url, {
          method: req.method ?? 'GET',
          headers: forwardHeaders(req.headers),
          ...(req.method === 'POST' ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
          signal: abort.signal,
        });
      } catch (error) {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`upstream unreachable: ${String(error)}`);
        return;
      }
      const minted = response.headers.get('mcp-session-id');
      if (minted !== null && sent === undefined && !known.has(minted)) {
        known.add(minted);
        onSessionStarted(minted);
      }
      if (req.method === 'DELETE' && response.ok && typeof sent === 'string') known.delete(sent);
      await writeWebResponse(res, response);
    },
    dropSession: end,
    async dropAll() {
      await Promise.all([...known].map(end));
    },
    async close() {
      await this.dropAll();
    },
  };
}
