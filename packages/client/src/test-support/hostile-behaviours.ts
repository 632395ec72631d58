/*
 * What a hostile MCP server may do with one request. A behaviour is data (fast-check draws it,
 * a counterexample prints it); hostile-render.ts writes it on the wire for the request at hand,
 * and the server (hostile-server.ts) carries that reply out.
 */

/** How a session id handed out by `initialize` looks. Every id but `empty` carries {@link ID_MARKER}. */
export type IdKind = 'plain' | 'none' | 'empty' | 'control' | 'latin1' | 'spaces' | 'long' | 'overlong' | 'reuse-dead';
/** Found in every session id the server mints: an event that contains it leaks a raw id. */
export const ID_MARKER = 'QpX7';

export type SessionGoneKind = 'amdahl' | 'typescript-sdk' | 'python-sdk' | 'go-sdk' | 'express-400' | 'html-404' | 'empty-404' | 'huge-404';
export type BodyKind = 'html' | 'rpc-error' | 'garbage' | 'empty' | 'huge-html';
/** What a 202 to a request carries, besides nothing. */
export type AcceptedBody = 'own-error' | 'own-result' | 'other-id' | 'garbage' | 'sse';
export type BadSse = 'no-final-blank' | 'cr-only' | 'crlf' | 'split' | 'junk-events' | 'answer-twice' | 'other-event-type' | 'bom';

/** Behaviours for a POSTed request (`tools/call`, and `initialize` with `init-ok`). */
export type Behaviour =
  /** The right answer, as JSON or SSE (with event ids and a priming event; or a stream that stays open after it), padded to a huge body. */
  | { readonly kind: 'answer'; readonly format: 'json' | 'sse' | 'sse-ids' | 'sse-open'; readonly padBytes: number; readonly stray?: IdKind }
  /** The answer to `initialize`, with a session id of that kind and that protocol version (`sse-open`: the stream stays open after it). */
  | { readonly kind: 'init-ok'; readonly format: 'json' | 'sse' | 'sse-open'; readonly id: IdKind; readonly version: string; readonly padBytes: number }
  /** A JSON-RPC error answer (status 200, the request's id), with a garbage `data`. */
  | { readonly kind: 'rpc-error'; readonly code: number; readonly data: string; readonly nullId?: boolean }
  /** Any status 200–599 with a body of that kind; a `Retry-After` as given. */
  | { readonly kind: 'status'; readonly status: number; readonly body: BodyKind; readonly contentType?: string; readonly retryAfter?: string; readonly stray?: IdKind }
  /** One of the ways servers say "session gone"; `uptime` is spliced raw into the amdahl data. */
  | { readonly kind: 'session-gone'; readonly dialect: SessionGoneKind; readonly uptime?: string; readonly data?: string }
  /** 200 with the answer under a content type that is not JSON-RPC's. */
  | { readonly kind: 'wrong-type'; readonly contentType: string | null }
  /** 200 `application/json` that is not the JSON-RPC answer to the request (not JSON, an empty batch, …). */
  | { readonly kind: 'bad-json'; readonly body: string }
  /** 200 SSE with broken framing or junk around the answer. */
  | { readonly kind: 'bad-sse'; readonly framing: BadSse }
  /** A response stream (or JSON body) cut by destroying the connection. */
  | { readonly kind: 'truncate'; readonly body: 'sse' | 'json'; readonly eventIds: boolean; readonly afterEvents: number; readonly retry?: string }
  /** The connection destroyed before any byte of a response. */
  | { readonly kind: 'reset' }
  /** A redirect, to the same URL, another origin, or a garbage Location. */
  | { readonly kind: 'redirect'; readonly status: 301 | 302 | 303 | 307 | 308; readonly location: 'self' | 'elsewhere' | 'garbage' }
  /** A response whose JSON-RPC id is another one, absent or null. */
  | { readonly kind: 'wrong-id'; readonly format: 'json' | 'sse'; readonly id: 'other' | 'missing' | 'null' | 'stringified' }
  // A 202, and behaviours after which a call could only wait for the SDK's timeout (a stall: "costly").
  /**
   * 202 Accepted to a request: the answer never comes. With a body all the same: a JSON-RPC error
   * or the result for the request's own id, an error for another id, broken JSON, or the answer as an event stream.
   */
  | { readonly kind: 'accepted'; readonly body?: AcceptedBody }
  /** No response at all, headers then nothing, or a body that never ends. */
  | { readonly kind: 'stall'; readonly phase: 'headers' | 'json-body' | 'sse-body' };

/** Behaviours for a GET: the standalone stream, or a resumption (`Last-Event-ID`). */
export type GetBehaviour =
  | { readonly kind: 'not-allowed' }
  /** An SSE stream that stays open (a resumption that stays open never answers: costly). */
  | { readonly kind: 'open'; readonly retry?: string }
  /** An SSE stream that ends at once. */
  | { readonly kind: 'end' }
  /** The resumed answer (a resumption's default). */
  | { readonly kind: 'resume' }
  | Extract<Behaviour, { kind: 'status' | 'session-gone' | 'reset' | 'truncate' }>;

/** Behaviours for a POSTed notification (no stall before the headers: the SDK sends its own without a timeout). */
export type NoteBehaviour =
  | Extract<Behaviour, { kind: 'status' | 'session-gone' | 'reset' | 'accepted' | 'answer' }>
  | { readonly kind: 'stall'; readonly phase: 'json-body' | 'sse-body' };

/** The bytes to write for one request. */
export interface Reply {
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: readonly (string | Uint8Array)[];
  /** How it ends: normally, by destroying the connection once the body is out, or never. */
  readonly end: 'end' | 'destroy' | 'stall';
  /** Written byte for byte on the socket: headers node:http refuses to write. */
  readonly raw?: boolean;
}
export type Outcome = Reply | { readonly status: 'reset' } | { readonly status: 'silence' };

/** What the server knows about the request being answered. */
export interface RequestContext {
  readonly rpcId: unknown;
  /** The right JSON-RPC answer (a result) to this request. */
  readonly answer: Record<string, unknown>;
  readonly url: string;
  /** Mints a session id of that kind (undefined: no header). */
  mint(kind: IdKind): string | undefined;
  /** A key for this response stream's event ids (`key/n`); the answer is kept for a resumption. */
  streamKey(answer: string): string;
}

/**
 * Behaviours after which the request's call could only wait for the SDK's timeout (the test ends
 * the call instead: hostile-run.ts): a stall, or a stream the server keeps open on a resumption.
 * (A 2xx that does not answer a request, a 202 or 204 among them, is not one: the engine decides
 * it like a stream that ended before its answer.)
 */
export function isCostly(b: Behaviour | GetBehaviour, resumption: boolean): boolean {
  return b.kind === 'stall' || (resumption && b.kind === 'open');
}
