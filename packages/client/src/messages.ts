import { SURFACED_ERROR_CODE, type ErrorInfo } from '@mcp-resilience/core';
import { readBounded } from './bounded-read.ts';
import { ANSWER_LIMIT } from './limits.ts';
import { SseParser } from './sse-parser.ts';

/**
 * Whether a response (or its `Content-Type`) is an SSE stream.
 *
 * @example
 * isEventStream(response) // true for 'text/event-stream; charset=utf-8'
 */
export function isEventStream(of: Response | string | null | undefined): boolean {
  return typeOf(of)?.toLowerCase().includes('text/event-stream') === true;
}

/** A response's `Content-Type`, or the one given. */
function typeOf(of: Response | string | null | undefined): string | null | undefined {
  return of instanceof Response ? of.headers.get('content-type') : of;
}

const JSON_TYPE = /^\s*application\/json\s*(;|$)/i;

/**
 * Whether a response (or its `Content-Type`) is a JSON body.
 *
 * @example
 * isJson(response) // true for 'application/json; charset=utf-8'
 */
export function isJson(of: Response | string | null | undefined): boolean {
  const type = typeOf(of);
  return type != null && JSON_TYPE.test(type);
}


/** A JSON-RPC message as the engine needs to see it. */
export interface RpcMessage {
  readonly jsonrpc?: string;
  readonly id?: string | number | null;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: unknown;
  readonly error?: unknown;
}

/** What a POST body carries. */
export type PostKind = 'request' | 'notification' | 'response' | 'batch' | 'other';

/**
 * Whether a message is the response (a result or an error) to request `id`. Ids match as the
 * official SDK matches them: `"4"` answers request `4`, as many servers send it.
 *
 * @example
 * isAnswerTo({ jsonrpc: '2.0', id: 4, result: {} }, 4) // true
 * isAnswerTo({ jsonrpc: '2.0', id: '4', result: {} }, 4) // true
 */
export function isAnswerTo(message: RpcMessage, id: string | number): boolean {
  const same = message.id === id || ((typeof message.id === 'string' || typeof message.id === 'number') && String(message.id) === String(id));
  return same && message.method === undefined && ('result' in message || 'error' in message);
}

/** A JSON body that answers a request: its text and value (under the id the caller used), and the answer in it. */
export interface FoundAnswer {
  readonly text: string;
  readonly value: unknown;
  readonly answer: RpcMessage;
}

/**
 * What to hand on for request `sentId` from a complete JSON body, under the id the caller used
 * (`callerId`: a re-issued request went out under another): the body itself if it holds the
 * answer; the server's refusal under the request's id if it holds only a JSON-RPC error with a
 * null id (the server could not read the request, so it did not run it: the call gets the
 * server's error instead of waiting for an answer that will not come); else undefined. The text
 * is parsed once, here.
 *
 * @example
 * findAnswer('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}', 4)?.text
 * // '{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Invalid Request"}}'
 */
export function findAnswer(text: string, sentId: string | number, callerId: string | number = sentId): FoundAnswer | undefined {
  const value = parseJson(text);
  // One message, the answer under the caller's id: a healthy call's, handed on as it came.
  if (isRecord(value) && value.id === callerId && isAnswerTo(value, sentId)) return { text, value, answer: value };
  const messages = messagesIn(value); // none when `text` is not JSON
  const answer = messages.find((m) => isAnswerTo(m, sentId));
  if (answer) {
    if (answer.id === callerId) return { text, value, answer };
    const renamed = { ...answer, id: callerId };
    const renamedValue = Array.isArray(value) ? value.map((m) => (m === answer ? renamed : m)) : renamed;
    return { text: JSON.stringify(renamedValue), value: renamedValue, answer: renamed };
  }
  const [only] = messages;
  if (messages.length !== 1 || only!.id !== null || only!.method !== undefined || !('error' in only!)) return undefined;
  const refusal = { ...only!, id: callerId };
  return { text: JSON.stringify(refusal), value: refusal, answer: refusal };
}

/** A POST body, read once. */
export interface PostBody {
  readonly kind: PostKind;
  readonly text: string;
  /** The message, for a single message. */
  readonly message?: RpcMessage;
  /** The batch's items, for a batch. */
  readonly batch?: readonly unknown[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `text` parsed as JSON; `undefined` when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The messages of a JSON value: itself, or a batch's items (objects only). */
function messagesIn(value: unknown): RpcMessage[] {
  return (Array.isArray(value) ? value : [value]).filter(isRecord) as RpcMessage[];
}

/**
 * Reads what a POST body carries: one request (a method and an id), one notification, one
 * response, a batch, or something else (not JSON-RPC). Never throws.
 *
 * @example
 * readPostBody('{"jsonrpc":"2.0","id":1,"method":"tools/list"}').kind // 'request'
 */
export function readPostBody(text: string): PostBody {
  const parsed = parseJson(text);
  if (Array.isArray(parsed)) return { kind: 'batch', text, batch: parsed };
  if (!isRecord(parsed)) return { kind: 'other', text }; // not JSON either
  const message = parsed as RpcMessage;
  const hasId = message.id != null; // neither undefined nor null
  const kind: PostKind = typeof message.method === 'string'
    ? (hasId ? 'request' : 'notification')
    : ('result' in message || 'error' in message ? 'response' : 'other');
  return { kind, text, message };
}

/**
 * The JSON-RPC messages of a response body: a JSON value (one message or a batch) or the
 * `data` of each SSE event. Garbage yields no message.
 *
 * @example
 * responseMessages('event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n', 'text/event-stream')
 */
export function responseMessages(text: string, contentType: string | null): RpcMessage[] {
  if (!isEventStream(contentType)) return messagesIn(parseJson(text));
  return new SseParser().push(`${text}\n\n`).flatMap((event) => messagesIn(parseJson(event.data))); // an empty `data` parses to none
}

/**
 * The first message of a response that `wanted` accepts (an answer, say), its body read up to
 * {@link ANSWER_LIMIT}: an SSE stream only up to the event that carries it (the stream may stay
 * open after it), anything else whole. `undefined` when none does.
 *
 * @example
 * const answer = await readMessage(response, (m) => isAnswerTo(m, id));
 */
export async function readMessage(response: Response, wanted: (message: RpcMessage) => boolean): Promise<RpcMessage | undefined> {
  const type = response.headers.get('content-type');
  const parser = isEventStream(type) ? new SseParser() : undefined;
  const enough = parser && ((text: string) => parser.push(text).some((event) => messagesIn(parseJson(event.data)).some(wanted)));
  return responseMessages(await readBounded(response, ANSWER_LIMIT, enough), type).find(wanted);
}

/**
 * The JSON-RPC error that answers request `id` with a typed failure: `SURFACED_ERROR_CODE`, its
 * message, and its details with its code as `data` (what `resilienceCodeOf` reads back).
 *
 * @example
 * surfaced(7, { code: 'OUTCOME_UNKNOWN', message: 'The call could not be completed', details: {} })
 */
export function surfaced(id: string | number, error: ErrorInfo): RpcMessage {
  return { jsonrpc: '2.0', id, error: { code: SURFACED_ERROR_CODE, message: error.message, data: { ...error.details, code: error.code } } };
}
