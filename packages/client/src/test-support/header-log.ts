import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback, passOn, readRpcRequest, relayAnswer } from './relay.ts';

/** One request as the relay saw it on the wire: its method, JSON-RPC method and id, and every header it carried. */
export interface LoggedRequest {
  readonly httpMethod: string;
  readonly rpcMethod?: string;
  readonly rpcId?: unknown;
  readonly params?: Record<string, unknown>;
  readonly headers: Readonly<Record<string, string>>;
}

/** What the relay does with one request instead of passing it on: an answer of its own, or a stream cut before any event. */
export type Intercept = { readonly status: number; readonly headers?: Record<string, string>; readonly body?: string } | 'cut-stream';

export interface HeaderLog {
  readonly url: string;
  readonly requests: readonly LoggedRequest[];
  /** The requests of one JSON-RPC method (or HTTP method, for those without one). */
  of(method: string): LoggedRequest[];
  /** From now on, `decide` may answer a request itself (return an {@link Intercept}) instead of passing it on. */
  intercept(decide: (request: LoggedRequest) => Intercept | undefined): void;
  stop(): Promise<void>;
}

/**
 * A real HTTP relay on 127.0.0.1 in front of a real MCP server that logs every request it
 * passes with all its headers: what a test asserts of the wire.
 *
 * @example
 * const log = await startHeaderLog(chaos.url);
 * expect(log.of('initialize').map((r) => r.headers.authorization)).toEqual(['Bearer at-1', undefined]);
 */
export async function startHeaderLog(target: string): Promise<HeaderLog> {
  const requests: LoggedRequest[] = [];
  let decide: (request: LoggedRequest) => Intercept | undefined = () => undefined;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const { body, rpcMethod } = await readRpcRequest(req);
      let message: { id?: unknown; params?: Record<string, unknown> } = {};
      try {
        message = JSON.parse(body) as typeof message;
      } catch {
        // Not JSON.
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      const request: LoggedRequest = {
        httpMethod: req.method!, ...(rpcMethod ? { rpcMethod } : {}), ...('id' in message ? { rpcId: message.id } : {}),
        ...(message.params ? { params: message.params } : {}), headers,
      };
      requests.push(request);
      const instead = decide(request);
      if (instead === 'cut-stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.flushHeaders();
        return void setImmediate(() => res.destroy());
      }
      if (instead) return void res.writeHead(instead.status, instead.headers).end(instead.body);
      await relayAnswer(await passOn(req, res, body, target), res);
    })().catch(() => res.destroy());
  });
  const { port, stop } = await listenOnLoopback(server);
  return {
    url: new URL(new URL(target).pathname, `http://127.0.0.1:${port}`).href,
    requests,
    of: (method) => requests.filter((r) => (r.rpcMethod ?? r.httpMethod) === method),
    intercept: (given) => void (decide = given),
    stop,
  };
}
