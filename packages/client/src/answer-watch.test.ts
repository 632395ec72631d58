import { describe, expect, it } from 'vitest';
import { watchAnswer } from './answer-watch.ts';
import type { RpcMessage } from './messages.ts';

const stream = (chunks: string[]) => new ReadableStream<Uint8Array>({
  start(controller) {
    for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
    controller.close();
  },
});

describe('watchAnswer', () => {
  it('sees an SSE answer before the reader does, however the events are split', async () => {
    const order: string[] = [];
    const response = new Response(stream(['event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\nda', 'ta: {"jsonrpc":"2.0","id":7,"result":{}}\n\n']), {
      headers: { 'content-type': 'text/event-stream' },
    });
    const watched = watchAnswer(response, 7, (answer: RpcMessage) => order.push(`answer ${'result' in answer ? 'result' : 'error'}`));
    const reader = watched.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      order.push(`read ${new TextDecoder().decode(value).includes('"id":7') ? 'answer' : 'other'}`);
    }
    expect(order).toEqual(['read other', 'answer result', 'read answer']);
  });

  it('sees a JSON answer, an error as much as a result, before the body ends', async () => {
    const answers: RpcMessage[] = [];
    const watched = watchAnswer(new Response('{"jsonrpc":"2.0","id":"a","error":{"code":-32602,"message":"bad level"}}', {
      headers: { 'content-type': 'application/json' },
    }), 'a', (answer) => answers.push(answer));
    const text = await watched.text();
    expect(answers).toEqual([JSON.parse(text)]);
  });

  it('ignores answers to other requests', async () => {
    const answers: RpcMessage[] = [];
    await watchAnswer(new Response('{"jsonrpc":"2.0","id":8,"result":{}}', { headers: { 'content-type': 'application/json' } }), 7, (a) => answers.push(a)).text();
    expect(answers).toEqual([]);
  });
});
