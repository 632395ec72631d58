// A small MCP server (Streamable HTTP, node:http, no SDK) for the server check's tests: it keeps
// the session contract (random session ids, 400 without an id, 404 with the seed's -32000 body
// for an id it does not have, DELETE, an open GET stream as use, an idle budget on its own timers)
// unless told to break one rule of it (`flaws`). Importable (`startFlawedServer`), or a command:
// `PORT=… FLAWS=dead-400,stale-uptime node flawed-mcp-server.mjs` (IDLE_MS for an idle budget).
import { randomBytes, randomInt } from 'node:crypto';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const SUPPORTED = ['2025-03-26', '2025-06-18', '2025-11-25'];
const MODERN = '2026-07-28';
/** Calls a session answers before the `burst-limit` flaw answers 429. */
const BURST = 8;
const ECHO = { name: 'echo', description: 'Returns its text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };

const json = (res, status, body, headers = {}) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
const error = (id, code, message, data) => ({ jsonrpc: '2.0', error: { code, message, ...(data ? { data } : {}) }, id });

/**
 * @param {{ flaws?: readonly string[], idleMs?: number, port?: number }} options
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export async function startFlawedServer({ flaws = [], idleMs, port = 0 } = {}) {
  const flaw = new Set(flaws);
  const startedAt = Date.now() - (flaw.has('stale-uptime') ? 3_600_000 : 0);
  /** @type {Map<string, { calls: number, streams: Set<import('node:http').ServerResponse>, timer?: NodeJS.Timeout }>} */
  const sessions = new Map();
  let counter = 0;
  let refuseInit = false;

  const evict = (id) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    clearTimeout(session.timer);
    for (const stream of session.streams) stream.end();
  };
  /** Use of a session: its idle time starts over, unless a stream is open (which is use, but for the `stream-not-use` flaw). */
  const used = (id) => {
    const session = sessions.get(id);
    if (!session || idleMs === undefined) return;
    clearTimeout(session.timer);
    if (session.streams.size > 0 && !flaw.has('stream-not-use')) return;
    session.timer = setTimeout(() => evict(id), idleMs);
  };
  const newId = () => {
    if (flaw.has('one-session')) return 'the-one-session';
    if (flaw.has('sequential-ids')) return `session-${++counter}`;
    if (flaw.has('decimal-ids')) return Array.from({ length: 30 }, () => randomInt(10)).join('');
    return randomBytes(16).toString('hex');
  };

  const gone = (res, rpcId) => {
    if (flaw.has('dead-400')) return json(res, 400, error(null, -32000, 'Bad Request: No valid session ID provided'));
    if (flaw.has('dead-200-32600')) return json(res, 200, error(rpcId ?? null, -32600, 'Session not found'));
    if (flaw.has('refuse-init-after-404')) refuseInit = true;
    const uptime = Math.floor((Date.now() - startedAt) / 1000);
    const data = flaw.has('no-uptime') ? undefined : { reason: 'session_not_found', action: 'reinitialize_and_replay_once', server_uptime_seconds: uptime };
    if (flaw.has('text-404')) return res.writeHead(404, { 'content-type': 'text/plain' }).end('session not found');
    const id = flaw.has('no-id-in-404') ? null : rpcId ?? null;
    json(res, 404, data ? error(id, -32000, 'Session not found. Please reinitialize.', data) : error(id, -32001, 'Session not found'));
  };

  const answer = (message, sessionId) => {
    const { id, method, params } = message;
    if (method === 'ping') return { jsonrpc: '2.0', id, result: {} };
    if (method === 'tools/list') return { jsonrpc: '2.0', id, result: { tools: [ECHO] } };
    if (method === 'tools/call' && params?.name === 'echo') {
      const session = sessionId === undefined ? undefined : sessions.get(sessionId);
      if (session && flaw.has('burst-limit') && ++session.calls > BURST) return 429;
      return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: String(params.arguments?.text) }] } };
    }
    return error(id, -32601, `Method not found: ${method}`);
  };

  const modern = (req, res, message) => {
    if (message.method === 'initialize') return json(res, 400, error(message.id ?? null, -32022, 'Unsupported protocol version', { supported: [MODERN] }));
    if (req.method !== 'POST') return res.writeHead(405, { allow: 'POST' }).end();
    if (flaw.has('modern-session-404') && req.headers['mcp-session-id'] !== undefined) return json(res, 404, error(message.id ?? null, -32001, 'Session not found'));
    const reply = answer(message);
    const headers = flaw.has('modern-session-id') ? { 'mcp-session-id': randomBytes(16).toString('hex') } : {};
    json(res, reply.error?.code === -32601 ? 404 : 200, reply, headers);
  };

  const handle = (req, res, message) => {
    if (flaw.has('modern')) return modern(req, res, message);
    const header = req.headers['mcp-session-id'];
    if (req.method === 'POST' && message.method === 'initialize' && header === undefined) {
      if (refuseInit) return json(res, 500, error(message.id ?? null, -32603, 'Internal error'));
      const id = newId();
      if (!sessions.has(id)) sessions.set(id, { calls: 0, streams: new Set() });
      used(id);
      const version = SUPPORTED.includes(message.params?.protocolVersion) ? message.params.protocolVersion : SUPPORTED.at(-1);
      return json(res, 200, { jsonrpc: '2.0', id: message.id, result: { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 'flawed', version: '0' } } }, { 'mcp-session-id': id });
    }
    if (header === undefined && !flaw.has('sessionless-calls')) return json(res, 400, error(null, -32000, 'Bad Request: Mcp-Session-Id header is required'));
    if (header !== undefined && !sessions.has(header)) return gone(res, message.id);
    const version = req.headers['mcp-protocol-version'];
    if (version !== undefined && !SUPPORTED.includes(version) && !flaw.has('any-protocol-version')) {
      return json(res, 400, error(null, -32000, `Bad Request: Unsupported protocol version: ${version}`));
    }
    used(header);
    if (req.method === 'DELETE') {
      if (!flaw.has('delete-ignored')) evict(header);
      return res.writeHead(200).end();
    }
    if (req.method === 'GET') {
      const session = sessions.get(header);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(': open\n\n');
      session.streams.add(res);
      used(header);
      res.on('close', () => (session.streams.delete(res), used(header)));
      return;
    }
    if (message.id === undefined) return res.writeHead(202).end();
    const reply = answer(message, header);
    if (reply === 429) return res.writeHead(429, { 'retry-after': '60', 'content-type': 'text/plain' }).end('too many calls on this session');
    json(res, 200, reply);
  };

  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      let message = {};
      try {
        message = req.method === 'POST' ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        return json(res, 400, error(null, -32700, 'Parse error'));
      }
      handle(req, res, message);
    });
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    close: () => new Promise((resolve) => {
      for (const id of [...sessions.keys()]) evict(id);
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await startFlawedServer({
    flaws: (process.env.FLAWS ?? '').split(',').filter(Boolean), port: Number(process.env.PORT ?? 0),
    ...(process.env.IDLE_MS ? { idleMs: Number(process.env.IDLE_MS) } : {}),
  });
  process.stdout.write(`${server.url}\n`);
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
}
