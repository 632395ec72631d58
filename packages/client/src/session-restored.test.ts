import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import { isResilienceError, normalizeTrace, type ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionRestoredContext } from './options.ts';
import { createResilientFetch, type ResilientFetchOptions } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';
import { startTamperProxy, type TamperProxy } from './test-support/tamper-proxy.ts';

let chaos: ChaosServer | undefined;
let proxy: TamperProxy | undefined;
let client: Client | undefined;
afterEach(() => stopAll([client], [proxy, chaos]).then(() => (chaos = proxy = client = undefined)));

async function setup(options: ResilientFetchOptions, url?: string) {
  const events: ResilienceEvent[] = [];
  client = new Client({ name: 'restored', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url ?? chaos!.url), {
    fetch: createResilientFetch({ onEvent: (e) => events.push(e), ...options }),
  }));
  return events;
}
const posts = () => chaos!.state().log.filter((e) => e.httpMethod === 'POST').map((e) => `${e.rpcMethod} ${e.status}`);
const echo = (text: string) => client!.callTool({ name: 'echo', arguments: { text } });

describe('onSessionRestored', () => {
  it('runs on the new session after subscriptions and log level are restored, before the replay, and may send requests there', async () => {
    chaos = await startChaosServer();
    const seen: Omit<SessionRestoredContext, 'request' | 'notify'>[] = [];
    const events = await setup({
      async onSessionRestored(context) {
        const { request, notify, ...facts } = context;
        seen.push(facts);
        await expect(request('tools/call', { name: 'echo', arguments: { text: 'app state, restored' } }))
          .resolves.toMatchObject({ content: [{ text: 'app state, restored' }] });
        await expect(request('tools/call', { name: 'no-such-tool' })).resolves.toMatchObject({ isError: true });
        await expect(request('no/such/method')).rejects.toMatchObject({ code: 'RPC_ERROR', details: { method: 'no/such/method', rpcCode: -32601 } });
        await notify('notifications/roots/list_changed');
      },
    });
    await client!.subscribeResource({ uri: 'chaos://counter' });
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    await expect(echo('replayed')).resolves.toMatchObject({ content: [{ text: 'replayed' }] });
    expect(seen).toEqual([{ session: 2, previous: 1, reason: 'lost', revision: '2025-11-25', capabilities: expect.any(Object), restored: { subscriptions: 1 } }]);
    expect(posts().slice(-8)).toEqual([
      'initialize 200', 'notifications/initialized 202', 'resources/subscribe 200',
      'tools/call 200', 'tools/call 200', 'no/such/method 200', 'notifications/roots/list_changed 202', 'tools/call 200',
    ]);
    expect(normalizeTrace(events).map((e) => e.type)).toEqual([
      'session-started', 'session-lost', 'session-started', 'session-reinitialized', 'state-restored', 'replayed',
    ]);
  });

  it('failing, fails the call with SESSION_RESTORE_FAILED (never replayed), ends the new session, and the next call opens another: one try per call, no loop', async () => {
    chaos = await startChaosServer();
    let fail = true;
    const background: Promise<unknown>[] = [];
    const events = await setup({
      background: (task) => void background.push(task),
      onSessionRestored() {
        if (fail) throw new Error('the application could not restore its state');
      },
    });
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    const initializes = () => chaos!.state().log.filter((e) => e.rpcMethod === 'initialize').length;
    for (const [text, opened] of [['a', 2], ['b', 3]] as const) {
      const error = await echo(text).then(() => undefined, (e: unknown) => e);
      expect(isResilienceError(error, 'SESSION_RESTORE_FAILED')).toBe(true);
      expect((error as Error).cause).toMatchObject({ message: 'the application could not restore its state' });
      expect(initializes()).toBe(opened); // one re-initialization for the call, never a second
    }
    expect(chaos.state().log.filter((e) => e.rpcMethod === 'tools/call').map((e) => e.status)).toEqual([404]); // never replayed
    await Promise.all(background); // the DELETEs are background work
    expect(chaos.state().log.filter((e) => e.httpMethod === 'DELETE' && e.status === 200)).toHaveLength(2);
    expect(events.filter((e) => e.type === 'replayed')).toEqual([]);
    fail = false;
    await expect(echo('later')).resolves.toMatchObject({ content: [{ text: 'later' }] });
    expect(initializes()).toBe(4);
  });
});

describe('a subscription answered under its id written as a string ("4" for 4), as the SDK accepts it', () => {
  it('is recorded, and restored on the new session', async () => {
    chaos = await startChaosServer({ jsonResponses: true });
    proxy = await startTamperProxy(chaos.url, ({ rpcMethod }) => (rpcMethod === 'resources/subscribe'
      ? { rewrite: (body) => body.replace(/"id":(\d+)/, '"id":"$1"') }
      : 'forward'));
    const events = await setup({}, proxy.url);
    await client!.subscribeResource({ uri: 'chaos://counter' });
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    await echo('after');
    expect(events).toContainEqual(expect.objectContaining({ type: 'state-restored', subscriptions: 1 }));
    expect(chaos.state().sessions).toEqual([expect.objectContaining({ ordinal: 2, subscriptions: ['chaos://counter'] })]);
  });
});

describe('a restore request answered 429 (the engine\'s own request, through the same loop as any call)', () => {
  it('is backed off on the new session, as the server asked, and the subscription is restored', async () => {
    chaos = await startChaosServer();
    const waits: number[] = []; // the engine's sleep port: each wait told, none taken in real time
    const events = await setup({ sleep: async (ms) => void waits.push(ms) });
    await client!.subscribeResource({ uri: 'chaos://counter' });
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }, { kind: 'status', status: 429, retryAfter: '2', rpcMethod: 'resources/subscribe' }]);
    await expect(echo('after')).resolves.toMatchObject({ content: [{ text: 'after' }] });
    expect(posts().filter((p) => p.startsWith('resources/subscribe'))).toEqual(['resources/subscribe 200', 'resources/subscribe 429', 'resources/subscribe 200']);
    const backoff = events.find((e) => e.type === 'backed-off');
    expect(backoff).toMatchObject({ method: 'resources/subscribe', status: 429 });
    expect(backoff?.type === 'backed-off' && backoff.delayMs).toBeGreaterThanOrEqual(2_000); // the server's Retry-After, jittered upwards
    expect(waits).toContain(backoff?.type === 'backed-off' && backoff.delayMs);
    expect(events).toContainEqual(expect.objectContaining({ type: 'state-restored', subscriptions: 1 }));
    expect(events.filter((e) => e.type === 'gave-up')).toEqual([]);
    expect(chaos.state().sessions).toEqual([expect.objectContaining({ ordinal: 2, subscriptions: ['chaos://counter'] })]);
  });
});
