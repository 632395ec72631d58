import type { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { redactSessionId } from '@mcp-resilience/core';
import type { Backend } from './backend.ts';
import { sessionGoneResponse } from './dialect-responses.ts';
import type { FaultPlan } from './fault-plan.ts';
import type { LiveFeed } from './live-feed.ts';
import type { ProtectedResource } from './protected-resource.ts';
import { firstMessage, parseBody, readBody, send, type RpcHead } from './request-body.ts';
import type { SessionReaper } from './session-reaper.ts';
import type { SessionEntry, SessionRegistry } from './session-registry.ts';
import { replaceAnswer, statusAnswer } from './status-answer.ts';
import { breakStream } from './stream-dropper.ts';
import type { Uptime } from './uptime.ts';
import type { WireEntry, WireLog } from './wire-log.ts';

/** What the fault layer reads and tells while it serves a request. */
export interface FaultLayerParts {
  readonly plan: FaultPlan;
  readonly registry: SessionRegistry;
  readonly reaper: SessionReaper;
  readonly backend: Backend;
  readonly log: WireLog;
  readonly live: LiveFeed;
  readonly uptime: Uptime;
  readonly auth: ProtectedResource | undefined;
  /** `http://host:port`, for the protected resource's challenges. */
  readonly origin: () => string;
  /** Where the request being served is known, so that a session it opens is known as its own. */
  readonly serving: AsyncLocalStorage<WireEntry>;
}

/**
 * The fault layer in front of the backend, one MCP request at a time: logs it on the wire, answers
 * a status fault, an unauthorized request or a dead session itself, arms a status after the run or
 * a dropped stream, keeps the session's use and state, and hands the rest to the backend.
 *
 * @example
 * const layer = new FaultLayer({ plan, registry, reaper, backend, log, live, uptime, auth: undefined, origin, serving });
 * await layer.serve(req, res);
 */
export class FaultLayer {
  readonly #parts: FaultLayerParts;

  constructor(parts: FaultLayerParts) {
    this.#parts = parts;
  }

  async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { plan, registry, reaper, backend, log, live, uptime, auth, origin, serving } = this.#parts;
    const httpMethod = req.method ?? 'GET';
    const raw = httpMethod === 'POST' ? await readBody(req) : '';
    if (raw === undefined) return void res.writeHead(413, { 'content-type': 'text/plain' }).end('request body over 4 MiB');
    const body = httpMethod === 'POST' ? parseBody(raw) : undefined;
    const rpc = firstMessage(body);
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    reaper.expireIdle();
    const session = sessionId === undefined ? undefined : registry.get(sessionId);
    const wire = log.add({
      atMs: uptime.ms(), httpMethod,
      ...(rpc.method === undefined ? {} : { rpcMethod: rpc.method }), ...(rpc.id === undefined ? {} : { rpcId: rpc.id }),
      ...(sessionId === undefined ? {} : { session: redactSessionId(sessionId) }),
      ...(session === undefined ? {} : { sessionOrdinal: session.ordinal }),
    });
    live.requestStarted(wire);
    res.on('close', () => {
      wire.status = res.statusCode;
      live.requestEnded(wire);
    });
    const shape = { httpMethod, isRequest: rpc.id !== undefined, ...(rpc.method === undefined ? {} : { rpcMethod: rpc.method }) };

    const status = plan.takeStatus(shape);
    if (status) {
      wire.fault = `status ${status.status}`;
      return send(res, statusAnswer(status));
    }
    const unauthorized = auth?.challenge(req.headers.authorization, origin());
    if (unauthorized && auth?.order === 'auth-first') return send(res, unauthorized);
    if (backend.mode !== 'modern' && sessionId !== undefined && !session) {
      wire.fault = `session-gone ${plan.dialect}`;
      return send(res, sessionGoneResponse(plan.dialect, { requestId: rpc.id, uptimeSeconds: uptime.seconds() }));
    }
    if (unauthorized) return send(res, unauthorized);
    // A status after the run replaces the whole answer: no stream of it is left to break.
    const replacing = plan.takeStatus(shape, true);
    const drop = replacing ? undefined : plan.takeDrop(shape);
    if (replacing) replaceAnswer(res, statusAnswer(replacing), () => (wire.fault = `status ${replacing.status} after run`));
    if (drop) breakStream(res, drop, () => (wire.fault = 'drop-stream'));
    if (session) trackSession(registry, session, httpMethod, rpc, res);
    await serving.run(wire, () => backend.handle(req, res, body));
    // The client ended its session: it is gone for the fault layer too (and its resources freed).
    if (httpMethod === 'DELETE' && session && res.statusCode >= 200 && res.statusCode < 300) await reaper.evict([session.id], 'deleted');
  }
}

/** In use while the request runs (a GET stream for as long as it is open); session state once it succeeds. */
function trackSession(registry: SessionRegistry, session: SessionEntry, httpMethod: string, rpc: RpcHead, res: ServerResponse): void {
  const stream = httpMethod === 'GET';
  if (stream) registry.stream(session, 1);
  else registry.busy(session, 1);
  res.on('close', () => (stream ? registry.stream(session, -1) : registry.busy(session, -1)));
  res.on('finish', () => {
    if (res.statusCode !== 200) return;
    const uri = rpc.params?.uri;
    const level = rpc.params?.level;
    if (rpc.method === 'resources/subscribe' && typeof uri === 'string') session.subscriptions.add(uri);
    if (rpc.method === 'resources/unsubscribe' && typeof uri === 'string') session.subscriptions.delete(uri);
    if (rpc.method === 'logging/setLevel' && typeof level === 'string') session.logLevel = level;
  });
}
