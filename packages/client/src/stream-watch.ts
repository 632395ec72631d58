import { responseMessages, type RpcMessage } from './messages.ts';
import { SseParser } from './sse-parser.ts';

/**
 * The same SSE response (the standalone GET stream), telling `onMessage` of each JSON-RPC
 * message on it before the chunk that carries it reaches the reader, and `onEnd` once when the
 * body has been read to its end, broke, or was cancelled.
 *
 * @example
 * return watchStream(response, (message) => session.notice(message), session.openStream());
 */
export function watchStream(response: Response, onMessage: (message: RpcMessage) => void, onEnd: () => void): Response {
  let ended = false;
  const end = () => {
    if (!ended) (ended = true), onEnd();
  };
  if (!response.body) {
    end();
    return response;
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          return controller.close();
        }
        for (const event of parser.push(decoder.decode(value, { stream: true }))) {
          if (event.data !== '') responseMessages(event.data, 'application/json').forEach(onMessage);
        }
        controller.enqueue(value);
      } catch (error) {
        end();
        controller.error(error);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
