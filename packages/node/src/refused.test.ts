import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { refusedBeforeSending } from './node-ports.ts';

describe('refusedBeforeSending', () => {
  it('knows a refused connection as Node\'s fetch reports it', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve)); // nothing listens there now
    const node = await fetch(`http://127.0.0.1:${port}/`).then(() => undefined, (e: unknown) => e);
    expect(refusedBeforeSending(node)).toBe(true);
  });

  it('treats anything else as possibly sent', () => {
    for (const error of [new TypeError('Failed to fetch'), new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } }), undefined, 'x']) {
      expect(refusedBeforeSending(error)).toBe(false);
    }
  });
});
