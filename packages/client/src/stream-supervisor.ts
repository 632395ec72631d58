import { defined, ResilienceError, type ErrorInfo } from '@mcp-resilience/core';
import { AnsweredResponse, encoder } from './answered-response.ts';
import { findAnswer, isAnswerTo, isEventStream, surfaced, type RpcMessage } from './messages.ts';
import { HandedResponse } from './responses.ts';
import { formatSse, SseParser } from './sse-parser.ts';

type Id = string | number;

/** What comes after a response stream ended before its answer. */
export type StreamNext =
  /** Read on from this stream: the same one resumed, or a re-issued request's. */
  | { readonly follow: Response }
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
 * The body handed to the SDK for a request answered over SSE. Events pass through as they
 * arrive (without ids: resuming is the engine's job); when the stream ends or breaks before the
 * JSON-RPC response, the owner is told and says what comes next: another stream to read on
 * (resumed, or re-issued), the answer, or an error that ends the body so that the call fails at
 * once instead of waiting for its timeout. The answer always reaches the SDK under the id it sent.
 *
 * @example
 * return superviseStream(response, runner);
 */
export function superviseStream(first: Response, owner: StreamOwner): Response {
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  let parser: SseParser;
  let decoder: TextDecoder;
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  let answered = false;

  const deliver = (controller: ReadableStreamDefaultController<Uint8Array>, data: string) => {
    let text = data;
    try {
      const message = JSON.parse(data) as RpcMessage;
      const isAnswer = isAnswerTo(message, owner.sentId);
      const instead = owner.message(message, isAnswer);
      if (isAnswer) {
        answered = true;
        if (instead) text = JSON.stringify(instead);
        else if (message.id !== owner.originalId) text = JSON.stringify({ ...message, id: owner.originalId });
      }
    } catch {
      // Not JSON: the SDK reports it as it would have.
    }
    controller.enqueue(encoder.encode(formatSse(text)));
    if (answered) owner.finished(); // the call is over once its answer is handed on, whenever the stream closes
  };

  /** Reads on from `response` (the first stream, a resumed one, or a re-issue's), with no cursor yet. */
  const follow = (response: Response) => {
    reader = response.body!.getReader();
    parser = new SseParser();
    decoder = new TextDecoder();
    lastEventId = retryMs = undefined;
  };
  follow(first);

  const finish = (controller: ReadableStreamDefaultController<Uint8Array>, error?: unknown) => {
    owner.finished();
    if (error === undefined) controller.close();
    else controller.error(error);
  };

  return new HandedResponse(
    new ReadableStream<Uint8Array>({
      async pull(controller) {
        for (;;) {
          let chunk: ReadableStreamReadResult<Uint8Array> | undefined;
          try {
            chunk = await reader.read();
          } catch {
            chunk = undefined; // broken: like an end before the answer
          }
          if (chunk && !chunk.done) {
            let delivered = false;
            for (const event of parser.push(decoder.decode(chunk.value, { stream: true }))) {
              if (event.id !== undefined) lastEventId = event.id;
              if (event.retry !== undefined) retryMs = event.retry;
              if (event.data !== '') (deliver(controller, event.data), (delivered = true));
            }
            // A pull that enqueues nothing is not called again: read on until something is delivered.
            if (delivered) return;
            continue;
          }
          if (answered) return finish(controller);
          let next: StreamNext;
          try {
            if (owner.signal?.aborted) throw owner.signal.reason;
            next = await owner.ended(defined({ lastEventId, retryMs }));
          } catch (reason) {
            return finish(controller, reason ?? new DOMException('The call was aborted', 'AbortError'));
          }
          if ('follow' in next) {
            follow(next.follow);
            continue;
          }
          const text = JSON.stringify('answer' in next ? next.answer : surfaced(owner.originalId, next.fail));
          controller.enqueue(encoder.encode(formatSse(text)));
          return finish(controller);
        }
      },
      cancel(reason) {
        owner.finished();
        return reader.cancel(reason).catch(() => {});
      },
    }),
    first,
  );
}
