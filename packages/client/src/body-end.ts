import { responseMessages, type RpcMessage } from './messages.ts';
import { HandedResponse } from './responses.ts';
import { SseParser } from './sse-parser.ts';

/**
 * The same response, telling `done` once when its body has been read to the end, broke, or
 * was cancelled (or at once, when it has no body): how the engine knows a call or a stream is
 * over. With `onMessage`, the body is an SSE stream (the standalone GET stream) whose JSON-RPC
 * messages are told to it before the chunk that carries them reaches the reader.
 *
 * @example
 * return whenBodyEnds(response, session.openStream(), (message) => session.notice(message));
 */
export function whenBodyEnds(response: Response, done: () => void, onMessage?: (message: RpcMessage) => void): Response {
  let called = false;
  const once = () => {
    if (!called) (called = true), done();
  };
  if (!response.body) {
    once();
    return response;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          once();
          return controller.close();
        }
        if (onMessage) {
          for (const event of parser.push(decoder.decode(value, { stream: true }))) {
            responseMessages(event.data, 'application/json').forEach(onMessage); // an empty `data` holds none
          }
        }
        controller.enqueue(value);
      } catch (error) {
        once();
        controller.error(error);
      }
    },
    cancel(reason) {
      once();
      return reader.cancel(reason);
    },
  });
  return new HandedResponse(body, response);
}
