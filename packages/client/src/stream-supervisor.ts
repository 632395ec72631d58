import { advance, ResilienceError, SURFACED_ERROR_CODE, type Action, type CallState, type ErrorInfo, type ResilienceEvent } from '@mcp-resilience/core';
import { readBounded } from './bounded-read.ts';
import { isAnswerTo, isEventStream, responseMessages, type RpcMessage } from './messages.ts';
import { formatSse, SseParser } from './sse-parser.ts';

type Id = string | number;


/** What the supervisor needs from the engine for one call. */
export interface StreamCall {
  readonly originalId: Id;
  sentId: Id;
  readonly method?: string;
  state: CallState;
  /** Core's decision about a stream that ended before its response. */
  decide(ended: { readonly lastEventId?: string; readonly retryMs?: number }): Action;
  /** GET + `Last-Event-ID` on the call's session; undefined when that did not give a stream. */
  resume(lastEventId: string): Promise<Response | undefined>;
  /** The request sent again under `id` (through the whole engine: session loss, backoff …). */
  reissue(id: string): Promise<Response>;
  sleep(ms: number): Promise<void>;
  emit(event: ResilienceEvent): void;
  aborted(): boolean;
}

const encoder = new TextEncoder();

function gaveUp(id: Id, error: ErrorInfo): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code: SURFACED_ERROR_CODE, message: error.message, data: { ...error.details, code: error.code } } });
}

/**
 * The body handed to the SDK for a request answered over SSE. Events pass through as they
 * arrive (without ids: resuming is the engine's job); if the stream ends or breaks before the
 * JSON-RPC response, core decides: resume with GET + `Last-Event-ID` after the server's
 * `retry`, re-issue the request under a new id when that is safe, or end the body with a
 * JSON-RPC error for the call (`data.code`: `OUTCOME_UNKNOWN`, …) so it fails at once instead
 * of waiting for its timeout. The answer always reaches the SDK under the id it sent.
 *
 * @example
 * return superviseStream(response, call);
 */
export function superviseStream(first: Response, call: StreamCall): Response {
  let reader = first.body!.getReader();
  let parser = new SseParser();
  let decoder = new TextDecoder();
  let lastEventId: string | undefined;
  let retryMs: number | undefined;
  let answered = false;
  const tag = call.method === undefined ? {} : { method: call.method };

  const deliver = (controller: ReadableStreamDefaultController<Uint8Array>, data: string) => {
    let text = data;
    try {
      const message = JSON.parse(data) as RpcMessage;
      if (isAnswerTo(message, call.sentId)) {
        answered = true;
        if (call.sentId !== call.originalId) text = JSON.stringify({ ...message, id: call.originalId });
      }
    } catch {
      // Not JSON: the SDK reports it as it would have.
    }
    controller.enqueue(encoder.encode(formatSse(text)));
  };

  const follow = (response: Response) => {
    reader = response.body!.getReader();
    parser = new SseParser();
    decoder = new TextDecoder();
    lastEventId = retryMs = undefined;
  };

  /** The stream ended before the answer: carry out core's decision. Returns false when the body is finished. */
  const recover = async (controller: ReadableStreamDefaultController<Uint8Array>): Promise<boolean> => {
    const action = call.decide({ ...(lastEventId === undefined ? {} : { lastEventId }), ...(retryMs === undefined ? {} : { retryMs }) });
    call.state = advance(call.state, action);
    if (action.type === 'resume') {
      call.emit({ type: 'resumed', ...tag, attempt: action.attempt, delayMs: action.delayMs });
      await call.sleep(action.delayMs);
      const resumed = await call.resume(action.lastEventId);
      if (resumed) follow(resumed);
      else lastEventId = undefined; // it could not be resumed: the next decision knows that
      return true;
    }
    if (action.type === 'reissue') {
      call.emit({ type: 'reissued', ...tag, attempt: action.attempt, delayMs: action.delayMs });
      await call.sleep(action.delayMs);
      call.sentId = `${String(call.originalId)}~s${action.attempt}`;
      const response = await call.reissue(call.sentId);
      if (isEventStream(response) && response.body) {
        follow(response);
        return true;
      }
      const text = await readBounded(response, 16 * 1024 * 1024);
      for (const message of responseMessages(text, response.headers.get('content-type'))) deliver(controller, JSON.stringify(message));
      if (!answered) throw new ResilienceError({ code: 'MALFORMED_RESPONSE', message: 'The re-issued request got no answer' });
      return false;
    }
    const error: ErrorInfo = action.type === 'give-up'
      ? action.error
      : { code: 'OUTCOME_UNKNOWN', message: 'The response stream ended before the response', details: {} };
    call.emit({ type: 'gave-up', ...tag, code: error.code });
    controller.enqueue(encoder.encode(formatSse(gaveUp(call.originalId, error))));
    return false;
  };

  return new Response(
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
          if (answered) return controller.close();
          if (call.aborted()) return controller.error(new DOMException('The call was aborted', 'AbortError'));
          try {
            if (!(await recover(controller))) return controller.close();
          } catch (error) {
            const info: ErrorInfo = error instanceof ResilienceError
              ? { code: error.code, message: error.message, details: error.details }
              : { code: 'OUTCOME_UNKNOWN', message: 'The call could not be completed', details: {} };
            call.emit({ type: 'gave-up', ...tag, code: info.code });
            controller.enqueue(encoder.encode(formatSse(gaveUp(call.originalId, info))));
            return controller.close();
          }
        }
      },
      cancel(reason) {
        return reader.cancel(reason).catch(() => {});
      },
    }),
    { status: first.status, statusText: first.statusText, headers: first.headers },
  );
}
