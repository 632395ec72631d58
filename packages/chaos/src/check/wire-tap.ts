import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { redactSessionId } from '@mcp-resilience/core';
import { callKey } from './scenario.ts';

/**
 * One request to the MCP endpoint as the check saw it, and how it ended: the wire ledger the
 * checks score. Times are milliseconds since the scenario started; session ids appear only as
 * redacted tags.
 */
export interface WireRecord {
  readonly seq: number;
  readonly startMs: number;
  readonly httpMethod: string;
  /**
   * The connection it came on, numbered in order of first use. On one connection a client sends a
   * request only after the answer before it has come whole (HTTP/1.1 does not pipeline), which is
   * what proves, with no clock, that a client had read an answer before it sent a request.
   */
  readonly connection: number;
  /** The tag of the `Mcp-Session-Id` the request carried. */
  readonly session?: string;
  /** It carried `Last-Event-ID` (a resumption). */
  readonly lastEventId?: boolean;
  /** The bearer token it carried, by the protected server's tag (`t1`, `t2`, … in order of issue; `t?` unknown), never the token. */
  readonly token?: string;
  rpcMethod?: string;
  /** For `tools/call`: the call's key (tool and arguments, see `callKey`). */
  call?: string;
  /** When the server ended its answer (or the connection closed first): the earliest a client can have had it whole. */
  endMs?: number;
  status?: number;
  retryAfter?: string;
  /** `Retry-After` in ms from the end of the response (delta-seconds or an HTTP-date). */
  retryAfterMs?: number;
  /** The tag of the session id the response gave (an `initialize` answer). */
  minted?: string;
  /** The response ended before it was complete (a dropped stream). */
  broken?: boolean;
  /** The start of the response's body (what the reports show of an answer), session ids and tokens never in it. */
  body?: string;
  /** The server wrote a JSON-RPC response (a `result` or an `error` with an `id`) on it: an answer reached the wire whole, whatever became of the stream after. */
  answered?: boolean;
}

/** A JSON-RPC response in a written chunk: a JSON body, or an event's `data:` line (the SDK writes each event whole). */
function carriesAnswer(text: string): boolean {
  const candidates = text.includes('data:') ? text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)) : [text];
  return candidates.some((c) => {
    try {
      const messages = ([] as unknown[]).concat(JSON.parse(c) as unknown);
      return messages.some((m) => typeof m === 'object' && m !== null && 'id' in m && ('result' in m || 'error' in m));
    } catch {
      return false;
    }
  });
}

/** How much of each response's body is kept for the reports. */
const BODY_KEPT = 240;

/**
 * Keeps the first {@link BODY_KEPT} characters the server writes to `response` on `record`, by
 * wrapping its `write` and `end`; `end` waits until `holdUntil()` (wall-clock ms) when it says so,
 * and notes when it was called (`ended`): no client can have the whole answer before.
 */
function keepBody(response: ServerResponse, record: WireRecord, holdUntil: () => number | undefined, ended: () => void): void {
  let kept = '';
  const take = (chunk: unknown) => {
    if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) return;
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (!record.answered && carriesAnswer(text)) record.answered = true;
    if (kept.length >= BODY_KEPT) return;
    kept += text.slice(0, BODY_KEPT - kept.length);
    record.body = kept;
  };
  const { write, end } = response;
  response.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    take(chunk);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof response.write;
  response.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== 'function') take(chunk);
    const wait = (holdUntil() ?? 0) - Date.now();
    const finish = () => (ended(), (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest));
    if (wait > 0) return (setTimeout(finish, wait), this);
    return finish();
  } as typeof response.end;
}

/**
 * Told of a request once its body has arrived, before the server reads it; may return a wall-clock
 * time (`Date.now()` ms) until which the end of its answer is held (an answer whose `Retry-After`
 * date must lie a fixed margin ahead of it).
 *
 * @example
 * const onRequest: OnRequest = (record) => (record.call ? Date.now() + 500 : undefined);
 */
export type OnRequest = (record: WireRecord) => number | void;

/** Names the bearer token of an `Authorization` header for the ledger (a protected server's `tagOf`). */
export type TokenTagger = (authorization: string | undefined) => string | undefined;

const CHANNEL = 'http.server.request.start';
interface Tap {
  records: WireRecord[];
  onRequest: OnRequest;
  t0: number;
  tagToken?: TokenTagger | undefined;
  connections: WeakMap<Socket, number>;
  connectionsSeen: number;
}
const taps = new Map<number, Tap>();

function connectionOf(tap: Tap, socket: Socket): number {
  let n = tap.connections.get(socket);
  if (n === undefined) tap.connections.set(socket, (n = ++tap.connectionsSeen));
  return n;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * `Retry-After` as ms from `nowMs`: delta-seconds or an HTTP-date; undefined if it is neither.
 *
 * @example
 * retryAfterMs('2', Date.now()); // 2000
 */
export function retryAfterMs(value: string, nowMs: number): number | undefined {
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

function parseRpc(text: string): { method?: string; tool?: unknown; args?: unknown } {
  try {
    const body = JSON.parse(text) as unknown;
    const first = (Array.isArray(body) ? body[0] : body) as { method?: unknown; params?: { name?: unknown; arguments?: unknown } } | null;
    if (typeof first !== 'object' || first === null) return {};
    return { ...(typeof first.method === 'string' ? { method: first.method } : {}), tool: first.params?.name, args: first.params?.arguments };
  } catch {
    return {};
  }
}

function onStart(message: unknown): void {
  const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
  const tap = taps.get(request.socket.localPort ?? -1);
  if (!tap || !(request.url ?? '').startsWith('/mcp')) return;
  const session = header(request, 'mcp-session-id');
  const token = tap.tagToken?.(header(request, 'authorization'));
  const record: WireRecord = {
    seq: tap.records.length + 1, startMs: performance.now() - tap.t0, httpMethod: request.method ?? 'GET', connection: connectionOf(tap, request.socket),
    ...(session === undefined ? {} : { session: redactSessionId(session) }),
    ...(header(request, 'last-event-id') === undefined ? {} : { lastEventId: true }),
    ...(token === undefined ? {} : { token }),
  };
  tap.records.push(record);
  let holdUntil: number | undefined;
  const now = () => performance.now() - tap.t0;
  keepBody(response, record, () => holdUntil, () => (record.endMs ??= now()));
  response.once('close', () => {
    record.endMs ??= now();
    record.status = response.statusCode;
    const retryAfter = response.getHeader('retry-after');
    if (retryAfter !== undefined) {
      record.retryAfter = String(retryAfter);
      const ms = retryAfterMs(record.retryAfter, Date.now());
      if (ms !== undefined) record.retryAfterMs = ms;
    }
    const minted = response.getHeader('mcp-session-id');
    if (typeof minted === 'string') record.minted = redactSessionId(minted);
    if (!response.writableFinished) record.broken = true;
  });
  if (record.httpMethod !== 'POST') return void (holdUntil = tap.onRequest(record) ?? undefined);
  // This listener comes before the server's own (the channel speaks before the server is told
  // of the request), so a fault applied here is in force when the server reads the request.
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.once('end', () => {
    const rpc = parseRpc(Buffer.concat(chunks).toString('utf8'));
    if (rpc.method !== undefined) record.rpcMethod = rpc.method;
    if (rpc.method === 'tools/call') record.call = callKey(rpc.tool, rpc.args);
    holdUntil = tap.onRequest(record) ?? undefined;
  });
}

/** A tap on one port: the records so far, and `stop()`. */
export interface WireTap {
  readonly records: readonly WireRecord[];
  stop(): void;
}

/**
 * Records every request to the MCP endpoint of the HTTP server on `port` in this process (the
 * chaos server the check started), through Node's `http.server.request.start` diagnostics
 * channel: what the server's own wire log has, plus `Last-Event-ID`, the call's arguments, when
 * each answer ended and whether it broke, timed from `t0` (`performance.now()`). `onRequest` sees
 * each request before the server does. `tagToken` (a protected server's) names the bearer token
 * each request carried; the token itself is never kept.
 *
 * @example
 * const tap = tapWire(port, performance.now(), (record) => {});
 * // … traffic …
 * tap.stop(); tap.records;
 */
export function tapWire(port: number, t0: number, onRequest: OnRequest, tagToken?: TokenTagger): WireTap {
  if (taps.size === 0) subscribe(CHANNEL, onStart);
  const tap: Tap = { records: [], onRequest, t0, tagToken, connections: new WeakMap(), connectionsSeen: 0 };
  taps.set(port, tap);
  return {
    records: tap.records,
    stop() {
      if (taps.get(port) !== tap) return;
      taps.delete(port);
      if (taps.size === 0) unsubscribe(CHANNEL, onStart);
    },
  };
}
