import * as client from '@mcp-resilience/client';
import type { ResilienceEvent } from '@mcp-resilience/client';
import { describe, expect, it, vi } from 'vitest';
import * as node from './index.ts';

const rateLimitedOnce = (): typeof fetch => {
  let calls = 0;
  return async () => calls++ === 0
    ? new Response('', { status: 429, headers: { 'retry-after': '0' } })
    : new Response('{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}', { status: 200, headers: { 'content-type': 'application/json' } });
};
const post = (f: typeof fetch) => f('http://127.0.0.1:9/mcp', {
  method: 'POST', headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
});

describe('@mcp-resilience/node', () => {
  it('re-exports the public API of @mcp-resilience/client', () => {
    for (const name of Object.keys(client)) expect(node, name).toHaveProperty(name);
    expect(node.ResilienceError).toBe(client.ResilienceError);
    expect(node.isResilienceError).toBe(client.isResilienceError);
    expect(node.EVENT_CHANNEL).toBe('mcp-resilience:event');
  });

  it('hands every event to onEvent and to the log, and keeps a sleep that is given', async () => {
    const events: ResilienceEvent[] = [];
    const lines: string[] = [];
    const sleep = vi.fn(async () => {});
    const f = node.createResilientFetch({ fetch: rateLimitedOnce(), sleep, onEvent: (e) => events.push(e), log: (l) => lines.push(l) });
    expect((await post(f)).status).toBe(200);
    expect(sleep).toHaveBeenCalledOnce();
    expect(events).toMatchObject([{ type: 'backed-off', status: 429, attempt: 1 }]);
    expect(lines).toEqual([expect.stringMatching(/^mcp-resilience tools\/list got HTTP 429 \(rate-limited\) → retry 1 in \d+ ms$/)]);
  });
});
