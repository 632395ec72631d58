import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { EVENT_CHANNEL, publishEvent } from './diagnostics.ts';
import { connect } from './index.ts';

let chaos: ChaosServer | undefined;
let client: Client | undefined;
const subscribers: ((message: unknown, name: string | symbol) => void)[] = [];
afterEach(async () => {
  for (const subscriber of subscribers.splice(0)) unsubscribe(EVENT_CHANNEL, subscriber);
  await client?.close().catch(() => {});
  await chaos?.stop();
  chaos = client = undefined;
});

function listen(): unknown[] {
  const received: unknown[] = [];
  const subscriber = (message: unknown) => void received.push(message);
  subscribers.push(subscriber);
  subscribe(EVENT_CHANNEL, subscriber);
  return received;
}

describe('diagnostics_channel', () => {
  it('is named mcp-resilience:event', () => {
    expect(EVENT_CHANNEL).toBe('mcp-resilience:event');
  });

  it('publishes an event to subscribers, and is quiet without any', () => {
    const event: ResilienceEvent = { type: 'replayed', session: 2, method: 'tools/call' };
    expect(() => publishEvent(event)).not.toThrow();
    const received = listen();
    publishEvent(event);
    expect(received).toEqual([event]);
  });

  it('carries every event of an eviction end to end, while onEvent still gets them all', async () => {
    chaos = await startChaosServer({ dialect: 'amdahl' });
    const received = listen();
    const own: ResilienceEvent[] = [];
    client = await connect(chaos.url, { onEvent: (e) => own.push(e) });
    await client.callTool({ name: 'echo', arguments: { text: 'before' } });
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    await expect(client.callTool({ name: 'echo', arguments: { text: 'after' } })).resolves.toMatchObject({ content: [{ text: 'after' }] });
    expect(received.map((e) => (e as ResilienceEvent).type)).toEqual([
      'session-started', 'session-lost', 'session-started', 'session-reinitialized', 'replayed',
    ]);
    expect(received).toEqual(own);
    expect(received[1]).toMatchObject({ type: 'session-lost', session: 1, dialect: 'amdahl', method: 'tools/call' });
  });
});
