import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  ID_MARKER, isCostly, type Behaviour, type GetBehaviour, type IdKind, type NoteBehaviour, type Outcome, type RequestContext,
} from './hostile-behaviours.ts';
import { render, renderGet } from './hostile-render.ts';

/*
 * A hostile MCP server on 127.0.0.1: a small node:http server that plays a script, one
 * behaviour per request, and records what it received. Requests are told apart by what they
 * are, so that concurrent ones (the SDK's standalone GET) do not shuffle the script:
 * `initialize`, `tools/call`, notifications, GETs of the standalone stream and GETs resuming a
 * call's stream each take the next behaviour of their own list; once a list is used up, the
 * server answers well (notifications 202). Other requests get an empty result, DELETE 405. A request that
 * carries a session id the server declared gone is answered 404 without using the script.
 */

export interface HostileScript {
  /** `initialize` requests; then a plain JSON answer with a plain session id. */
  readonly inits: readonly Behaviour[];
  /** `tools/call` requests (first sends, retries, replays, re-issues alike); then the answer as JSON. */
  readonly calls: readonly Behaviour[];
  /** GETs of the standalone stream (its reconnections too); then 405. */
  readonly streams: readonly GetBehaviour[];
  /** GETs resuming a call's response stream (`Last-Event-ID`); then the rest of that stream. */
  readonly resumes: readonly GetBehaviour[];
  /** POSTed notifications (the SDK's, and the engine's own on a re-initialization); then 202. */
  readonly notes?: readonly NoteBehaviour[];
}

/** One request as the server received it, and what it did with it. */
export interface Received {
  readonly seq: number;
  readonly httpMethod: string;
  readonly rpcMethod?: string;
  readonly rpcId?: unknown;
  /** The call's label (`params._meta['test/label']`; for a GET resuming a call's stream, that call's). */
  readonly label?: string;
  readonly sessionId?: string;
  readonly lastEventId?: string;
  /** The behaviour played (JSON), `default`, or `dead-id`. */
  readonly did: string;
  /** Stalled: after this, the request's call could only wait for the SDK's timeout (the test ends it instead). */
  readonly costly: boolean;
  /** The session id this response declared gone. */
  readonly declaredDead?: string;
}

export interface HostileServer {
  readonly url: string;
  readonly address: AddressInfo;
  /** Every request, in order of arrival. */
  readonly log: readonly Received[];
  /** Session ids declared gone, in order. */
  readonly dead: readonly string[];
  /** Session ids handed out (on `initialize` answers and stray headers). */
  readonly minted: readonly string[];
  /** Whether the server still listens, and how many connections are open. */
  listening(): boolean;
  openConnections(): number;
  /** Destroys every connection (stalled ones too) and stops listening. */
  stop(): Promise<void>;
}

const LABEL = 'test/label';
const ANSWER_JSON: Behaviour = { kind: 'answer', format: 'json', padBytes: 0 };
const INIT_OK: Behaviour = { kind: 'init-ok', format: 'json', id: 'plain', version: '2025-11-25', padBytes: 0 };

function mintId(kind: IdKind, n: number, dead: readonly string[]): string | undefined {
  const base = `sid${n}_${ID_MARKER}`;
  switch (kind) {
    case 'plain': return base;
    case 'none': return undefined;
    case 'empty': return '';
    case 'control': return `\x01${base}\x7f`;
    case 'latin1': return `${base}\xe9\xff`;
    case 'spaces': return ` ${base} with spaces `;
    case 'long': return base + 'L'.repeat(8_000);
    case 'overlong': return base + 'O'.repeat(20_000);
    case 'reuse-dead': return dead.at(-1) ?? base;
  }
}

function write(res: ServerResponse, socket: Socket, outcome: Outcome): void {
  if (outcome.status === 'reset') return void socket.destroy();
  if (outcome.status === 'silence') return; // destroyed at stop
  const { status, headers, body, end } = outcome;
  if (outcome.raw) {
    const head = `HTTP/1.1 ${status} Hostile\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}connection: close\r\n\r\n`;
    const bytes = Buffer.concat([Buffer.from(head, 'latin1'), ...body.map((part) => Buffer.from(part))]);
    if (end === 'stall') return void socket.write(bytes);
    return void socket.write(bytes, () => (end === 'end' ? socket.end() : socket.destroy()));
  }
  res.writeHead(status, headers.flat());
  if (end === 'stall') res.flushHeaders();
  body.forEach((part, i) => res.write(part, i === body.length - 1 && end === 'destroy' ? () => socket.destroy() : undefined));
  if (end === 'end') res.end();
  else if (end === 'destroy' && body.length === 0) res.write('', () => socket.destroy());
}

/**
 * Starts a hostile server on 127.0.0.1 (a free port) that plays `script`. `onStall` hears of each
 * request it stalls (logged `costly`) as it stalls it.
 *
 * @example
 * const server = await startHostileServer({ inits: [], calls: [{ kind: 'reset' }], streams: [], resumes: [] });
 * try { … } finally { await server.stop(); }
 */
export async function startHostileServer(script: HostileScript, onStall?: (request: Received) => void): Promise<HostileServer> {
  const lists = { inits: [...script.inits], calls: [...script.calls], streams: [...script.streams], resumes: [...script.resumes], notes: [...(script.notes ?? [])] };
  const log: Received[] = [];
  const dead: string[] = [];
  const minted: string[] = [];
  /** The answers of response streams that carry event ids, by key, and the label of the call they answer. */
  const pending = new Map<string, { readonly answer: string; readonly label?: string }>();
  const sockets = new Set<Socket>();
  let url = '';

  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    const header = (name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined);
    const sessionId = header('mcp-session-id');
    const lastEventId = header('last-event-id');
    let message: { id?: unknown; method?: unknown; params?: { _meta?: Record<string, unknown>; protocolVersion?: unknown } } = {};
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed === 'object' && parsed !== null) message = parsed as typeof message;
    } catch {
      // not JSON: a GET or DELETE
    }
    const rpcMethod = typeof message.method === 'string' ? message.method : undefined;
    const resumedKey = req.method === 'GET' ? lastEventId?.split('/')[0] : undefined;
    const label = resumedKey === undefined ? message.params?._meta?.[LABEL] : pending.get(resumedKey)?.label;
    const entry = {
      seq: log.length + 1, httpMethod: req.method ?? '?', ...(rpcMethod === undefined ? {} : { rpcMethod }),
      ...(message.id === undefined ? {} : { rpcId: message.id }), ...(typeof label === 'string' ? { label } : {}),
      ...(sessionId === undefined ? {} : { sessionId }), ...(lastEventId === undefined ? {} : { lastEventId }),
    };
    const ctx = (answer: Record<string, unknown>, streamKey?: string): RequestContext => ({
      rpcId: message.id, answer, url,
      mint: (kind) => {
        const id = mintId(kind, minted.length + 1, dead);
        if (id !== undefined) minted.push(id);
        return id;
      },
      streamKey: (text) => {
        if (streamKey !== undefined) return streamKey;
        const key = `k${pending.size + 1}`;
        pending.set(key, { answer: text, ...(typeof label === 'string' ? { label } : {}) });
        return key;
      },
    });
    const done = (did: string, outcome: Outcome, flags: { costly?: boolean; gone?: boolean } = {}) => {
      const declaredDead = flags.gone && sessionId !== undefined ? sessionId : undefined;
      if (declaredDead !== undefined && !dead.includes(declaredDead)) dead.push(declaredDead);
      const received: Received = { ...entry, did, costly: flags.costly === true, ...(declaredDead === undefined ? {} : { declaredDead }) };
      log.push(received);
      write(res, req.socket, outcome);
      if (received.costly) onStall?.(received);
    };
    // A notification's answer is not waited for by the SDK: nothing done to one is costly.
    const play = (b: Behaviour | GetBehaviour | undefined, fallback: Behaviour | GetBehaviour, c: RequestContext, resumption = false, resumed?: { key: string; answer: string }) => {
      const behaviour = b ?? fallback;
      const outcome = req.method === 'GET' ? renderGet(behaviour as GetBehaviour, c, resumed) : render(behaviour as Behaviour, c);
      done(b === undefined ? 'default' : JSON.stringify(b), outcome, {
        costly: (req.method === 'GET' || message.id !== undefined) && isCostly(behaviour, resumption),
        gone: behaviour.kind === 'session-gone',
      });
    };

    if (sessionId !== undefined && dead.includes(sessionId)) {
      return done('dead-id', render({ kind: 'session-gone', dialect: 'typescript-sdk' }, ctx({})), { gone: true });
    }
    const note = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'from the stream' } };
    if (req.method === 'GET') {
      const answer = resumedKey === undefined ? undefined : pending.get(resumedKey)?.answer;
      if (answer === undefined) return play(lists.streams.shift(), { kind: 'not-allowed' }, ctx(note, 'g'));
      return play(lists.resumes.shift(), { kind: 'resume' }, ctx(JSON.parse(answer) as Record<string, unknown>, resumedKey), true, { key: resumedKey!, answer });
    }
    if (req.method !== 'POST') return done('default', { status: 405, headers: [], body: [], end: 'end' });
    if (rpcMethod === undefined) return done('default', { status: 202, headers: [], body: [], end: 'end' });
    if (message.id === undefined) return play(lists.notes.shift(), { kind: 'accepted' }, ctx({}));
    if (rpcMethod === 'initialize') {
      const result = { protocolVersion: '2025-11-25', capabilities: { tools: {}, logging: {} }, serverInfo: { name: 'hostile', version: '0' } };
      return play(lists.inits.shift(), INIT_OK, ctx({ jsonrpc: '2.0', id: message.id, result }));
    }
    // A tool call is answered with its label, so that an answer given to the wrong call shows.
    const result = rpcMethod === 'tools/call' ? { content: [{ type: 'text', text: typeof label === 'string' ? label : 'ok' }] } : {};
    return play(rpcMethod === 'tools/call' ? lists.calls.shift() : undefined, ANSWER_JSON, ctx({ jsonrpc: '2.0', id: message.id, result }));
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  url = `http://127.0.0.1:${address.port}/mcp`;
  return {
    url, address, log, dead, minted,
    listening: () => server.listening,
    openConnections: () => sockets.size,
    stop: () => new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      for (const socket of sockets) socket.destroy();
    }),
  };
}
