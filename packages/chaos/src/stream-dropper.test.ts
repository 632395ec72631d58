import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from './test-support/raw-client.ts';
import { manualClock, type ChaosClock } from './chaos-clock.ts';
import { BREAK_AFTER_DELIVERY_MS, breakStream } from './stream-dropper.ts';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? (server.closeAllConnections(), server.close(() => resolve())) : resolve()));
  server = undefined;
});

/** A server whose one SSE answer sends a priming event, then its response: broken by `breakStream`, its cut timed on `clock`. */
async function serveBrokenStream(onDrop: () => void, clock: ChaosClock): Promise<string> {
  server = createServer((_request, response) => {
    breakStream(response, { afterEvents: 1, eventIds: true }, onDrop, clock);
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('id: 1\ndata: \n\n');
    response.end('event: message\nid: 2\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
}

describe('breakStream', () => {
  it('cuts the connection a moment after the events it lets through, so that a client still reading them gets them all', async () => {
    let dropped!: () => void;
    const drop = new Promise<void>((resolve) => (dropped = resolve));
    const clock = manualClock();
    const response = await fetch(await serveBrokenStream(() => dropped(), clock));
    await drop;
    // A client that had not read yet when the server decided to break (a busy page): with an
    // instant cut the error overtakes the unread bytes and they are discarded (Node and Chromium alike).
    expect(clock.pending).toBe(1); // the cut waits its time …
    const reader = response.body!.getReader();
    let received = '';
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return 'clean end';
        received += Buffer.from(value).toString('utf8');
      }
    })().catch(() => 'broken');
    await until('the first bytes of the stream', () => received !== ''); // … so the client reads what came before it …
    await clock.advance(BREAK_AFTER_DELIVERY_MS - 1);
    expect(clock.pending).toBe(1);
    await clock.advance(1); // … and then the connection is cut
    const end = await reading;
    expect(received).toBe('id: 1\ndata: \n\n'); // the priming event, its id to resume from …
    expect(end).toBe('broken'); // … and then a break, not an end: no final chunk, no response
  });
});
