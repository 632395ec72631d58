import { isEventStream, type RpcMessage } from './messages.ts';

type Id = string | number;

function rewrite(json: string, from: Id, to: Id): string {
  try {
    const message = JSON.parse(json) as RpcMessage;
    return message.id === from && message.method === undefined ? JSON.stringify({ ...message, id: to }) : json;
  } catch {
    return json;
  }
}

/**
 * The same request under another JSON-RPC id: a re-issued request must not reuse an id whose
 * first copy may still be running.
 *
 * @example
 * withRequestId('{"jsonrpc":"2.0","id":4,"method":"tools/list"}', '4~r1') // …"id":"4~r1"…
 */
export function withRequestId(text: string, id: Id): string {
  return JSON.stringify({ ...(JSON.parse(text) as RpcMessage), id });
}

/**
 * A response whose JSON-RPC response carries `sentId`, rewritten to carry `originalId`, so the
 * SDK matches the answer of a re-issued request to the call it made. JSON bodies and SSE
 * streams (event by event, as they arrive) alike.
 *
 * @example
 * return restoreResponseId(response, '4~r1', 4);
 */
export function restoreResponseId(response: Response, sentId: Id, originalId: Id): Response {
  if (!response.body) return response;
  const sse = isEventStream(response);
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  const convert = (text: string) =>
    sse
      ? text.split('\n').map((line) => (line.startsWith('data:') ? `data: ${rewrite(line.slice(5).trim(), sentId, originalId)}` : line)).join('\n')
      : rewrite(text, sentId, originalId);
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        pending += decoder.decode(chunk, { stream: true });
        if (!sse) return;
        const end = pending.lastIndexOf('\n');
        if (end < 0) return;
        controller.enqueue(encoder.encode(convert(pending.slice(0, end + 1))));
        pending = pending.slice(end + 1);
      },
      flush(controller) {
        if (pending !== '') controller.enqueue(encoder.encode(convert(pending)));
      },
    }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
