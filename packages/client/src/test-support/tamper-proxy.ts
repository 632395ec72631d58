import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { abortedOnClose, listenOnLoopback, passOn, readRpcRequest, relayAnswer } from './relay.ts';

/** One request the proxy received, as a rule sees it. */
export interface Passing {
  readonly httpMethod: string;
  readonly rpcMethod?: string;
  /** How many requests of this JSON-RPC method came before it. */
  readonly seen: number;
  readonly sessionId?: string;
}

/** An answer the proxy gives itself. */
export interface OwnAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * What the proxy does with a request: pass it on (once `forwardWhen` settles: the test says when),
 * hold it (never answered), pass it on with its answer rewritten, answer it itself (once `when`
 * settles, if given), or pass it on and, once the server's whole answer is in (the request ran),
 * give its own answer instead (`replaceAnswer`: a gateway whose upstream timed out or reset after
 * it forwarded the request).
 */
export type Tamper =
  | 'forward'
  | { readonly forwardWhen: Promise<unknown> }
  | 'stall'
  | { readonly rewrite: (body: string) => string }
  | { readonly answer: OwnAnswer; readonly when?: Promise<unknown> }
  | { readonly replaceAnswer: OwnAnswer };

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
  let stalled = 0;
  /** The requests being handled, by the JSON-RPC (or HTTP) method they were counted under. */
  const handling = new Map<Promise<void>, string>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let done!: () => void;
    const handled = new Promise<void>((resolve) => (done = resolve));
    void (async () => {
      const { body, rpcMethod } = await readRpcRequest(req); // a body that is not JSON-RPC is passed on as it is
      const key = rpcMethod ?? req.method!;
      const seen = counts.get(key) ?? 0;
      counts.set(key, seen + 1);
      handling.set(handled, key);
      res.once('close', () => res.writableFinished || drops.set(key, (drops.get(key) ?? 0) + 1));
      const sessionId = req.headers['mcp-session-id'];
      const tamper = rule({ httpMethod: req.method!, ...(rpcMethod ? { rpcMethod } : {}), seen, ...(typeof sessionId === 'string' ? { sessionId } : {}) });
      if (tamper === 'stall') return void (stalled += 1);
      const own = ({ status, contentType, body: text, headers }: OwnAnswer) => void res.writeHead(status, { ...headers, 'content-type': contentType }).end(text);
      if (typeof tamper === 'object' && 'answer' in tamper) {
        await tamper.when;
        return own(tamper.answer);
      }
      const signal = abortedOnClose(res);
      if (typeof tamper === 'object' && 'replaceAnswer' in tamper) {
        await (await passOn(req, res, body, target, signal)).text(); // the server's whole answer: it ran
        return own(tamper.replaceAnswer);
      }
      // Held, then passed on: unless the client gave up meanwhile (then nothing reaches the server).
      if (typeof tamper === 'object' && 'forwardWhen' in tamper) await tamper.forwardWhen.catch(() => {});
      const response = await passOn(req, res, body, target, signal);
      const forward = tamper === 'forward' || 'forwardWhen' in tamper;
      await relayAnswer(response, res, forward ? undefined : (tamper as { rewrite: (body: string) => string }).rewrite(await response.text()));
    })().catch(() => void res.destroy()).finally(() => (handling.delete(handled), done()));
  });
  const { port, stop } = await listenOnLoopback(server);
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
    stop,
  };
}
