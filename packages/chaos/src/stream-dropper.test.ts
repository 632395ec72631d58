import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { BREAK_AFTER_DELIVERY_MS, breakStream } from './stream-dropper.ts';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? (server.closeAllConnections(), server.close(() => resolve())) : resolve()));
  server = undefined;
});

/** A server whose one SSE answer sends a priming event, then (as a tool would, a moment later) its response: broken by `breakStream`. */
async function serveBrokenStream(onDrop: () => void): Promise<string> {
  server = createServer((_request, response) => {
    breakStream(response, { afterEvents: 1, eventIds: true }, onDrop);
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('id: 1\ndata: \n\n');
    setTimeout(() => response.end('event: message\nid: 2\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n'), 5);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
}

describe('breakStream', () => {
  it('cuts the connection a moment after the events it lets through, so that a client still reading them gets them all', async () => {
    let dropped!: () => void;
    const drop = new Promise<void>((resolve) => (dropped = resolve));
    const response = await fetch(await serveBrokenStream(() => dropped()));
    await drop;
    // A client that had not read yet when the server decided to break (a busy page): with an
    // instant cut the error overtakes the unread bytes and they are discarded (Node and Chromium alike).
    await new Promise((resolve) => setTimeout(resolve, BREAK_AFTER_DELIVERY_MS / 3));
    const reader = response.body!.getReader();
    let received = '';
    const end = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'clean end';
        received += Buffer.from(value).toString('utf8');
      }
    })().catch(() => 'broken');
    expect(received).toBe('id: 1\ndata: \n\n'); // the priming event, its id to resume from …
    expect(end).toBe('broken'); // … and then a break, not an end: no final chunk, no response
  });
});
