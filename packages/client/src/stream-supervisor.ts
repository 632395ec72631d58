import { defined, ResilienceError, type ErrorInfo } from '@mcp-resilience/core';
import { AnsweredResponse, encoder } from './answered-response.ts';
import { findAnswer, isAnswerTo, isEventStream, surfaced, type RpcMessage } from './messages.ts';
import { HandedResponse } from './responses.ts';
import { formatSse, SseParser } from './sse-parser.ts';

type Id = string | number;

/** What comes after a response stream ended before its answer. */
export type StreamNext =
  /** Read on from this stream: the same one resumed (`resumed`: its cursor goes on), or a re-issued request's. */
  | { readonly follow: Response; readonly resumed?: boolean }
  /** The answer, under the caller's id, from a re-issued request answered with JSON. */
  | { readonly answer: RpcMessage }
  /** The call failed: the body ends with this error for it. */
  | { readonly fail: ErrorInfo };

/** The call whose response stream is watched: it owns the call's state and makes every decision. */
export interface StreamOwner {
  /** The id the SDK sent, under which the answer must reach it. */
  readonly originalId: Id;
  /** The id the request last went out under (a re-issue takes a new one). */
  readonly sentId: Id;
  /** A message arrived (the answer, or anything the server sent on the way); for the answer, what to hand on instead, if anything. */
  message(message: RpcMessage, isAnswer: boolean): RpcMessage | undefined;
  /** The stream ended or broke before the answer, after this cursor (if any). Never rejects but for an abort. */
  ended(cursor: { readonly lastEventId?: string; readonly retryMs?: number }): Promise<StreamNext>;
  /** The call is over: its answer handed on, or the body failed or was cancelled. Told at least once. */
  finished(): void;
  /** A response stream of the call is being read (`true`), or is read no more (it ended, broke or was cancelled). */
  reading(open: boolean): void;
  /** Its reader cancelled the body: nothing more goes out for the call, and its waits end. */
  abandon(): void;
  readonly signal: AbortSignal | undefined;
}

/**
 * What a call's loop came to, for a stream that ended before its answer: a stream to read on
 * (resumed, or a re-issue's), or the answer under the caller's id (a JSON answer, or a final
 * error that answers the request); `MALFORMED_RESPONSE` when nothing answers it.
 *
 * @example
 * const next = await streamNextOf(response, '7~s1', 7);
 */
export async function streamNextOf(response: Response, sentId: Id, originalId: Id): Promise<StreamNext> {
  if (response instanceof AnsweredResponse) return { answer: response.answer };
  if (isEventStream(response) && response.body) return { follow: response };
  const found = findAnswer(await response.text().catch(() => ''), sentId, originalId);
  if (found) return { answer: found.answer };
  throw new ResilienceError({ code: 'MALFORMED_RESPONSE', message: 'The re-issue got no answer', details: { status: response.status } });
}

/**
 * The answer handed to the SDK for a request answered over SSE. Events pass through as they
 * arrive (without ids: resuming is the engine's job); when the stream ends or breaks before the
 * JSON-RPC response, the owner is told and says what comes next: another stream to read on
 * (resumed, or re-issued), the answer, or an error that ends the body so that the call fails at
 * once instead of waiting for its timeout. The answer always reaches the SDK under the id it sent.
 * A stream whose first message is its answer (a healthy call, mostly: a priming event before it
 * aside) reaches the SDK as that answer in JSON as soon as it is read, which the SDK takes as it is
 * (nothing is streamed again); the engine reads the rest of the stream to its end.
 *
 * @example
 * return await superviseStream(response, runner);
 */
export async function superviseStream(first: Response, owner: StreamOwner): Promise<Response> {
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  let parser: SseParser;
  let decoder: TextDecoder;
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  let answer: RpcMessage | undefined;
  /** The messages read and not yet handed on, as the SDK gets them. */
  let queued: string[] = [];
  /** A read already made, for the body to take first. */
  let held: Promise<ReadableStreamReadResult<Uint8Array> | undefined> | undefined;

  const deliver = (data: string) => {
    let text = data;
    try {
      const message = JSON.parse(data) as RpcMessage;
      const isAnswer = isAnswerTo(message, owner.sentId);
      const instead = owner.message(message, isAnswer);
      if (isAnswer) {
        answer = instead ?? (message.id === owner.originalId ? message : { ...message, id: owner.originalId });
        if (answer !== message) text = JSON.stringify(answer);
      }
    } catch {
      // Not JSON: the SDK reports it as it would have.
    }
    queued.push(text);
    if (answer) owner.finished(); // the call is over once its answer is handed on, whenever the stream closes
  };

  /** The next chunk; undefined when the stream broke (like an end before the answer). */
  const read = () => {
    const next = held ?? reader.read().catch(() => undefined);
    held = undefined;
    return next;
  };

  /** Takes a chunk's events; false at the end (or a break). */
  const take = (chunk: ReadableStreamReadResult<Uint8Array> | undefined) => {
    if (!chunk || chunk.done) return false;
    for (const event of parser.push(decoder.decode(chunk.value, { stream: true }))) {
      if (event.id !== undefined) lastEventId = event.id;
      if (event.retry !== undefined) retryMs = event.retry;
      if (event.data !== '') deliver(event.data);
    }
    return true;
  };

  /**
   * Reads on from `response`: the first stream, the same one resumed (the cursor stays until an
   * event moves it: a resume that breaks before any event resumes from the same place), or a
   * re-issue's (a new request: no cursor yet).
   */
  const follow = (response: Response, resumed = false) => {
    reader = response.body!.getReader();
    parser = new SseParser();
    decoder = new TextDecoder();
    if (!resumed) lastEventId = retryMs = undefined;
  };
  follow(first);
  owner.reading(true); // until the stream ends, breaks or is cancelled: the caller's abort still ends it, answered or not

  // Nothing is handed on before the first message (a priming event is the engine's alone).
  let chunk, more;
  while ((more = take(chunk = await read())) && !queued.length);
  if (!more) held = Promise.resolve(chunk); // the end (or a break) before any: the body decides on it
  else if (answer && queued.length === 1) {
    // Its answer first (a healthy call, mostly): handed on as JSON, which the SDK takes as it is. The
    // stream is read to its end; MCP has a server send nothing after its answer (what it does reaches the engine alone).
    void (async () => {
      while (take(await read())) queued = [];
      owner.reading(false);
    })();
    const headers = new Headers(first.headers);
    headers.set('content-type', 'application/json');
    return new AnsweredResponse(queued[0]!, answer, answer, first, headers);
  }

  const flush = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    controller.enqueue(encoder.encode(queued.map(formatSse).join('')));
    queued = [];
  };

  const finish = (controller: ReadableStreamDefaultController<Uint8Array>, error?: unknown) => {
    owner.finished();
    owner.reading(false);
    if (error === undefined) controller.close();
    else controller.error(error);
  };

  return new HandedResponse(
    new ReadableStream<Uint8Array>({
      async pull(controller) {
        for (;;) {
          // A pull that enqueues nothing is not called again: read on until something is handed on.
          if (queued.length) return flush(controller);
          if (take(await read())) continue;
          if (answer) return finish(controller);
          let next: StreamNext;
          try {
            if (owner.signal?.aborted) throw owner.signal.reason;
            next = await owner.ended(defined({ lastEventId, retryMs }));
          } catch (reason) {
            return finish(controller, reason ?? new DOMException('The call was aborted', 'AbortError'));
          }
          if ('follow' in next) {
            follow(next.follow, next.resumed);
            continue;
          }
          queued.push(JSON.stringify('answer' in next ? next.answer : surfaced(owner.originalId, next.fail)));
          flush(controller);
          return finish(controller);
        }
      },
      cancel(reason) {
        owner.abandon();
        owner.finished();
        owner.reading(false);
        return reader.cancel(reason).catch(() => {});
      },
    }),
    first,
  );
}
