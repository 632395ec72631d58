import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import { isResilienceError, type ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createResilientFetch, type ResilientFetch } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';
import { startTamperProxy, type TamperProxy } from './test-support/tamper-proxy.ts';
import { until } from './test-support/until.ts';
import { watchedFetch } from './test-support/watched-fetch.ts';

let chaos: ChaosServer | undefined;
let proxy: TamperProxy | undefined;
let client: Client | undefined;
afterEach(() => stopAll([client], [proxy, chaos]).then(() => (chaos = proxy = client = undefined)));


/** An SDK client on `url` through the engine; returns a way to send one tools/call through the same engine, with a signal. */
async function connect(url: string, resilient: ResilientFetch) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: resilient });
  client = new Client({ name: 'waits', version: '0' });
  await client.connect(transport);
  let n = 0;
  return (signal: AbortSignal) => resilient(url, {
    method: 'POST', signal,
    headers: {
      'content-type': 'application/json', accept: 'application/json, text/event-stream',
      'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: `direct-${++n}`, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } }),
  });
}

describe('every wait of the engine ends when its call is aborted', () => {
  it('a call waiting on a re-initialization that hangs (its own, or one it shares) ends at once with the abort reason', async () => {
    chaos = await startChaosServer();
    // Every initialize after the first is held: the re-initialization never ends on its own.
    proxy = await startTamperProxy(chaos.url, ({ rpcMethod, seen }) => (rpcMethod === 'initialize' && seen > 0 ? 'stall' : 'forward'));
    const post = await connect(proxy.url, createResilientFetch({ requestDeadlineMs: 600_000 })); // only the abort can end these waits
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    const [a, b] = [new AbortController(), new AbortController()];
    const first = post(a.signal);
    await until(() => proxy!.stalled === 1);
    const second = post(b.signal);
    const [reasonA, reasonB] = [new Error('the user gave up'), new Error('so did the other')];
    a.abort(reasonA);
    await expect(first).rejects.toBe(reasonA);
    b.abort(reasonB);
    await expect(second).rejects.toBe(reasonB);
    expect(proxy.stalled).toBe(1); // one re-initialization, shared
  });

  it('a call backing off on a long Retry-After ends at once with the abort reason', async () => {
    chaos = await startChaosServer();
    const events: ResilienceEvent[] = [];
    const post = await connect(chaos.url, createResilientFetch({ onEvent: (e) => events.push(e) }));
    await chaos.applyFaults([{ kind: 'status', status: 429, retryAfter: '15', rpcMethod: 'tools/call' }]);
    const controller = new AbortController();
    const call = post(controller.signal);
    await until(() => events.some((e) => e.type === 'backed-off'));
    const reason = new Error('not waiting 15 s');
    controller.abort(reason);
    await expect(call).rejects.toBe(reason);
    expect(chaos.state().log.filter((e) => e.rpcMethod === 'tools/call')).toHaveLength(1); // not sent again
  });
});

describe('a call that stops waiting', () => {
  it('leaves nothing running on its behalf: when the shared re-initialization fails, no other one is opened for it', async () => {
    chaos = await startChaosServer();
    const refusal = { status: 403, contentType: 'application/json', body: '{"error":"no"}' };
    let refuse!: () => void;
    const when = new Promise<void>((resolve) => (refuse = resolve));
    proxy = await startTamperProxy(chaos.url, ({ rpcMethod, seen }) => (rpcMethod === 'initialize' && seen > 0 ? { answer: refusal, when } : 'forward'));
    const wire = watchedFetch();
    const post = await connect(proxy.url, createResilientFetch({ requestDeadlineMs: 600_000, fetch: wire.fetch }));
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    const first = post(new AbortController().signal).catch((e: unknown) => e);
    await until(() => proxy!.received('initialize') === 2); // the re-initialization is under way…
    const leaving = new AbortController();
    const second = post(leaving.signal).catch((e: unknown) => e); // … so this call waits for it before it goes
    leaving.abort(new Error('gone'));
    expect(await second).toMatchObject({ message: 'gone' });
    refuse(); // the re-initialization is refused only now, after the second call stopped waiting for it
    expect(await first).toMatchObject({ code: 'REINITIALIZE_FAILED', details: { reason: 'refused', status: 403 } });
    await wire.quiet(); // had anything been left running, it would have sent its initialize by now
    expect(wire.sent.filter((method) => method === 'initialize')).toHaveLength(2);
    expect(proxy.received('initialize')).toBe(2); // the first session's, and the one re-initialization (refused); none followed
  });
});

describe('close()', () => {
  it('during a re-initialization: ends it, so that no session is opened after close and no hook runs', async () => {
    chaos = await startChaosServer();
    // The re-initialization's initialize reaches the server when the test says: after the close, unless the close ended it.
    let release!: () => void;
    const forwardWhen = new Promise<void>((resolve) => (release = resolve));
    proxy = await startTamperProxy(chaos.url, ({ rpcMethod, seen }) => (rpcMethod === 'initialize' && seen > 0 ? { forwardWhen } : 'forward'));
    const hooks: number[] = [];
    const events: ResilienceEvent[] = [];
    const resilient = createResilientFetch({ requestDeadlineMs: 600_000, onEvent: (e) => events.push(e), onSessionRestored: (context) => void hooks.push(context.session) });
    const post = await connect(proxy.url, resilient);
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    const call = post(new AbortController().signal).catch((e: unknown) => e);
    await until(() => proxy!.received('initialize') === 2);
    await resilient.close({ endSessions: true });
    expect(isResilienceError(await call, 'ENGINE_CLOSED')).toBe(true);
    await until(() => proxy!.dropped('initialize') === 1); // the close ended it: its connection is gone …
    release(); // … so, let through now, it reaches no server
    await proxy.settled('initialize');
    expect(chaos.state().log.filter((e) => e.rpcMethod === 'initialize')).toHaveLength(1); // only the first session's
    expect(chaos.state().sessions).toEqual([]);
    expect(hooks).toEqual([]);
    expect(events.filter((e) => e.type === 'session-started')).toHaveLength(1);
  });

  it('ends the waits under way with ENGINE_CLOSED, refuses later calls, and leaves no timer behind', async () => {
    chaos = await startChaosServer();
    const events: ResilienceEvent[] = [];
    const resilient = createResilientFetch({ onEvent: (e) => events.push(e) });
    const post = await connect(chaos.url, resilient);
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    await chaos.applyFaults([{ kind: 'status', status: 429, retryAfter: '15', rpcMethod: 'tools/call' }]);
    const call = post(new AbortController().signal);
    await until(() => events.some((e) => e.type === 'backed-off'));
    await resilient.close();
    const error = await call.catch((e: unknown) => e);
    expect(isResilienceError(error, 'ENGINE_CLOSED')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'gave-up', method: 'tools/call', code: 'ENGINE_CLOSED' });
    const later = await post(new AbortController().signal).catch((e: unknown) => e);
    expect(isResilienceError(later, 'ENGINE_CLOSED')).toBe(true);
    expect(timers()).toBeLessThanOrEqual(before);
    expect(chaos.state().log.filter((e) => e.httpMethod === 'DELETE')).toEqual([]); // the session is left to the store, or to expire
  });

  it('with endSessions, ends each current session on its server and removes it from the store', async () => {
    chaos = await startChaosServer();
    const { MemorySessionStore } = await import('./session-store.ts');
    const key = await (await import('./store-key.ts')).sessionStoreKey(chaos.url);
    const store = new MemorySessionStore();
    const tasks: Promise<unknown>[] = [];
    const resilient = createResilientFetch({ sessionStore: store, background: (task) => void tasks.push(task) });
    await connect(chaos.url, resilient);
    await Promise.all(tasks);
    expect(store.get(key)).toBeDefined();
    await resilient.close({ endSessions: true });
    expect(chaos.state().log.filter((e) => e.httpMethod === 'DELETE').map((e) => [e.status, e.sessionOrdinal])).toEqual([[200, 1]]);
    expect(chaos.state().sessions).toEqual([]);
    expect(store.get(key)).toBeUndefined();
  });
});
