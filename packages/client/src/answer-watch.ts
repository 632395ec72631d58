import { isEventStream, responseMessages, type RpcMessage } from './messages.ts';
import { SseParser } from './sse-parser.ts';

/**
 * The same response, calling `onAnswer` with the JSON-RPC answer to request `id` before the
 * chunk that carries it reaches the reader: whoever reads the response cannot learn the answer
 * before `onAnswer` has run. SSE bodies are watched event by event, JSON bodies at their end.
 *
 * @example
 * return watchAnswer(response, 7, (answer) => { if ('result' in answer) record(); });
 */
export function watchAnswer(response: Response, id: string | number, onAnswer: (answer: RpcMessage) => void): Response {
  if (!response.body) return response;
  const sse = isEventStream(response);
  const decoder = new TextDecoder();
  const parser = new SseParser();
  let json = '';
  let seen = false;
  const look = (messages: RpcMessage[]) => {
    const answer = messages.find((m) => m.id === id && m.method === undefined);
    if (answer && !seen) (seen = true), onAnswer(answer);
  };
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const text = decoder.decode(chunk, { stream: true });
        if (sse) look(parser.push(text).flatMap((event) => responseMessages(event.data, 'application/json')));
        else if (json.length < 1024 * 1024) json += text;
        controller.enqueue(chunk);
      },
      flush() {
        if (!sse) look(responseMessages(json, 'application/json'));
      },
    }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
