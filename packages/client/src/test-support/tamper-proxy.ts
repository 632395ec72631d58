import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request the proxy received, as a rule sees it. */
export interface Passing {
  readonly httpMethod: string;
  readonly rpcMethod?: string;
  /** How many requests of this JSON-RPC method came before it. */
  readonly seen: number;
  readonly sessionId?: string;
}

/**
 * What the proxy does with a request: pass it on (once `forwardWhen` settles: the test says when),
 * hold it (never answered), pass it on with its answer rewritten, or answer it itself (once `when`
 * settles, if given).
 */
export type Tamper =
  | 'forward'
  | { readonly forwardWhen: Promise<unknown> }
  | 'stall'
  | { readonly rewrite: (body: string) => string }
  | { readonly answer: { readonly status: number; readonly contentType: string; readonly body: string }; readonly when?: Promise<unknown> };

export interface TamperProxy {
  readonly url: string;
  /** Requests held so far. */
  readonly stalled: number;
  /** How many requests of a JSON-RPC method (or HTTP method, for those without one) the proxy received. */
  received(method: string): number;
  /** How many requests of a method lost their client before the proxy answered them. */
  dropped(method: string): number;
  /**
   * Resolves once every request of a JSON-RPC method (or HTTP method) received so far is done
   * with: answered, passed on and answered, or dropped by its client. Held ones aside.
   */
  settled(method: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real HTTP proxy on 127.0.0.1 in front of a real MCP server (the chaos server), that holds or
 * rewrites the requests a rule picks: for behaviours no server has on its own (an `initialize`
 * that never answers, an answer under a string id).
 *
 * @example
 * const proxy = await startTamperProxy(chaos.url, ({ rpcMethod, seen }) => (rpcMethod === 'initialize' && seen > 0 ? 'stall' : 'forward'));
 */
export async function startTamperProxy(target: string, rule: (request: Passing) => Tamper): Promise<TamperProxy> {
  const counts = new Map<string, number>();
  const drops = new Map<string, number>();
  const sockets = new Set<Socket>();
  let stalled = 0;
  /** The requests being handled, by the JSON-RPC (or HTTP) method they were counted under. */
  const handling = new Map<Promise<void>, string>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let done!: () => void;
    const handled = new Promise<void>((resolve) => (done = resolve));
    void (async () => {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      let rpcMethod: string | undefined;
      try {
        const method = (JSON.parse(body) as { method?: unknown }).method;
        if (typeof method === 'string') rpcMethod = method;
      } catch {
        // Not JSON-RPC: passed on as it is.
      }
      const key = rpcMethod ?? req.method!;
      const seen = counts.get(key) ?? 0;
      counts.set(key, seen + 1);
      handling.set(handled, key);
      res.once('close', () => res.writableFinished || drops.set(key, (drops.get(key) ?? 0) + 1));
      const sessionId = req.headers['mcp-session-id'];
      const tamper = rule({ httpMethod: req.method!, ...(rpcMethod ? { rpcMethod } : {}), seen, ...(typeof sessionId === 'string' ? { sessionId } : {}) });
      if (tamper === 'stall') return void (stalled += 1);
      if (typeof tamper === 'object' && 'answer' in tamper) {
        await tamper.when;
        return void res.writeHead(tamper.answer.status, { 'content-type': tamper.answer.contentType }).end(tamper.answer.body);
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host') headers.set(name, value);
      const upstream = new AbortController();
      res.on('close', () => upstream.abort());
      // Held, then passed on: unless the client gave up meanwhile (then nothing reaches the server).
      if (typeof tamper === 'object' && 'forwardWhen' in tamper) await tamper.forwardWhen.catch(() => {});
      const response = await fetch(new URL(req.url!, target), { method: req.method!, headers, signal: upstream.signal, ...(body === '' ? {} : { body }) });
      const out: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'transfer-encoding') out[name] = value;
      });
      res.writeHead(response.status, out);
      const forward = tamper === 'forward' || 'forwardWhen' in tamper;
      if (forward && response.body) {
        const reader = response.body.getReader();
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
        return void res.end();
      }
      const text = await response.text();
      res.end(forward ? text : (tamper as { rewrite: (body: string) => string }).rewrite(text));
    })().catch(() => void res.destroy()).finally(() => (handling.delete(handled), done()));
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(new URL(target).pathname, `http://127.0.0.1:${port}`).href,
    get stalled() {
      return stalled;
    },
    received: (method) => counts.get(method) ?? 0,
    dropped: (method) => drops.get(method) ?? 0,
    async settled(method) {
      const of = () => [...handling].filter(([, key]) => key === method).map(([handled]) => handled);
      for (let pending = of(); pending.length > 0; pending = of()) await Promise.all(pending);
    },
    stop: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}
