import type { Observation, RequestFacts } from '@mcp-resilience/core';
import { AnsweredResponse } from './answered-response.ts';
import { whenBodyEnds } from './body-end.ts';
import type { CallRequest } from './call-request.ts';
import { findAnswer, isEventStream, isJson } from './messages.ts';
import { discard, HandedResponse } from './responses.ts';
import { superviseStream, type StreamOwner } from './stream-supervisor.ts';

/**
 * A 2xx to `call`'s request: the response to hand on, or, for a request whose answer it does not
 * hold, the observation of a stream that ended before it (`facts`: the attempt's). A JSON answer
 * is read whole here: cut mid-body, or without the response to the request (another id, none,
 * garbage), it is decided like a stream that ended early; so is a 2xx with no body, or a body of
 * another type (a 204 to a request, an HTML page): nothing in it answers the request. The SDK
 * drops a 202 unread: it is read as a 200, so that an answer in its body (there should be none)
 * reaches the call. The engine's own requests get theirs unread. `top`: the answer goes to the
 * SDK (a stream is supervised, and the call is finished once its answer is read).
 *
 * @example
 * const answered = await readAnswer(runner, request, response, true, facts);
 * if (!(answered instanceof Response)) decide(answered); // ended before its answer
 */
export async function readAnswer(
  call: StreamOwner, request: CallRequest, response: Response, top: boolean, facts: RequestFacts,
): Promise<Response | Observation> {
  if (request.own) return response;
  if (call.originalId === undefined) return top && request.done ? whenBodyEnds(response, () => call.finished()) : response;
  if (response.status === 202) response = new HandedResponse(response.body, response, 200);
  const type = response.headers.get('content-type');
  if (isEventStream(type) && response.body) return top ? superviseStream(response, call) : response;
  if (isJson(type) && response.body) {
    const text = await response.text().catch(() => undefined); // undefined: cut mid-body
    if (text === undefined && call.signal?.aborted) throw call.signal.reason;
    const found = text === undefined ? undefined : findAnswer(text, call.sentId, call.originalId);
    if (found) {
      const instead = call.message(found.answer, true);
      if (top) call.finished();
      return instead
        ? new AnsweredResponse(JSON.stringify(instead), instead, instead, response)
        : new AnsweredResponse(found.text, found.value, found.answer, response);
    }
  } else {
    await discard(response);
  }
  return { kind: 'stream-ended', ...facts };
}
