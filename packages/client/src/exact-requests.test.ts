import { manualClock, startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from './connect.ts';
import type { Sleep } from './ports.ts';
import { createResilientFetch, type ResilientFetch, type ResilientFetchOptions } from './resilient-fetch.ts';
import { MemorySessionStore } from './session-store.ts';
import { startAuthGateway, type AuthGateway } from './test-support/auth-gateway.ts';
import { startHeaderLog, type HeaderLog } from './test-support/header-log.ts';
import { NO_GET_STREAM } from './test-support/no-get-stream.ts';
import { stopAll } from './test-support/stop-all.ts';
import { until } from './test-support/until.ts';
import { watchedFetch } from './test-support/watched-fetch.ts';

let chaos: ChaosServer | undefined;
let log: HeaderLog | undefined;
let gateway: AuthGateway | undefined;
const closing: { close(): Promise<unknown> }[] = [];
afterEach(() => stopAll(closing.splice(0), [log, gateway, chaos]).then(() => (chaos = log = gateway = undefined)));

/** What the application layers over the engine before each request (its own auth, an idempotency key): the fetch the SDK is given. */
type Layer = (init: RequestInit & { headers: Headers }) => void;

interface SdkClient {
  call(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<string>;
}

/** An official SDK client of `line` on `url`, whose transport's fetch is `layer` over `engine`. */
async function sdkClient(line: 1 | 2, url: string, engine: ResilientFetch, layer: Layer = () => {}, requestInit?: RequestInit): Promise<SdkClient> {
  const fetch = ((input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    const given = { ...init, headers };
    layer(given);
    return engine(input, given);
  }) as typeof globalThis.fetch;
  const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;
  if (line === 1) {
    const client = new Client1({ name: 'app', version: '1' });
    closing.push(client);
    await client.connect(new Transport1(new URL(url), { fetch, ...(requestInit ? { requestInit } : {}) }));
    return { call: async (name, args, options) => text(await client.callTool({ name, arguments: args }, undefined, options)) };
  }
  const client = new Client2({ name: 'app', version: '1' });
  closing.push(client);
  await client.connect(new Transport2(new URL(url), { fetch, ...(requestInit ? { requestInit } : {}) }));
  return { call: async (name, args, options) => text(await client.callTool({ name, arguments: args }, options)) };
}

function engine(options: ResilientFetchOptions = {}): ResilientFetch {
  const fetch = createResilientFetch({ backoff: { initialMs: 1, maxMs: 5 }, ...options });
  closing.push(fetch);
  return fetch;
}

/** `mcp-chaos` behind a header log; without its standalone stream unless `getStream` (the SDK's reconnect of it never races what a test counts). */
async function start({ getStream = false } = {}): Promise<HeaderLog> {
  chaos = await startChaosServer(getStream ? {} : { faults: [NO_GET_STREAM] });
  return (log = await startHeaderLog(chaos.url));
}

const evict = () => chaos!.applyFaults([{ kind: 'evict', session: 'all' }]);

describe.each([1, 2] as const)('invariant 10, SDK %s.x: the engine\'s own requests carry the client\'s credentials as it sends them now, and nothing else of an earlier request', (line) => {
  it('a token the client stopped sending (its user logged out) is not on the re-initialization, nor on the replay', async () => {
    const log = await start();
    let token: string | undefined = 'Bearer at-1';
    const client = await sdkClient(line, log.url, engine(), ({ headers }) => void (token && headers.set('authorization', token)));
    expect(await client.call('echo', { text: 'signed in' })).toBe('signed in');
    token = undefined;
    expect(await client.call('echo', { text: 'signed out' })).toBe('signed out');
    await evict();
    expect(await client.call('echo', { text: 'after the loss' })).toBe('after the loss');
    expect(log.of('initialize').map((r) => r.headers.authorization)).toEqual(['Bearer at-1', undefined]);
    const afterLogout = log.requests.slice(log.requests.findIndex((r) => r.params?.arguments && (r.params.arguments as { text?: string }).text === 'signed out'));
    expect(afterLogout.length).toBeGreaterThan(4); // the call, its 404, the re-initialization, its notification, the replay
    expect(afterLogout.filter((r) => r.headers.authorization !== undefined)).toEqual([]);
  });

  it('a custom credential header (credentialHeaders) follows the client too: a rotated API key is the one the re-initialization carries', async () => {
    const log = await start();
    let key = 'key-1';
    const client = await sdkClient(line, log.url, engine({ credentialHeaders: ['X-API-Key'] }), ({ headers }) => void headers.set('x-api-key', key));
    await client.call('echo', { text: 'one' });
    key = 'key-2';
    await client.call('echo', { text: 'two' });
    await evict();
    await client.call('echo', { text: 'three' });
    expect(log.of('initialize').map((r) => r.headers['x-api-key'])).toEqual(['key-1', 'key-2']);
  });

  it('two concurrent calls with their own Idempotency-Key meet one loss: each replay carries its own key, and each caller gets its own answer', async () => {
    const log = await start();
    const keyOf = (body: unknown) => {
      const message = JSON.parse(String(body)) as { method?: string; params?: { arguments?: { text?: string } } };
      return message.method === 'tools/call' ? `key-${message.params!.arguments!.text!}` : undefined;
    };
    const client = await sdkClient(line, log.url, engine(), (init) => {
      const key = keyOf(init.body);
      if (key) init.headers.set('idempotency-key', key);
      init.headers.set('x-request-id', `req-${Math.random()}`);
    });
    await client.call('echo', { text: 'warm' });
    await evict();
    expect(await Promise.all([client.call('echo', { text: 'A' }), client.call('echo', { text: 'B' })])).toEqual(['A', 'B']);
    const calls = log.of('tools/call').filter((r) => r.headers['idempotency-key'] !== 'key-warm');
    expect(calls).toHaveLength(4); // each sent, met the loss, and was replayed once
    for (const call of calls) expect(call.headers['idempotency-key']).toBe(`key-${(call.params!.arguments as { text: string }).text}`);
    // Every request's own id header is its own: none carried another request's (the engine's own requests carry none).
    const ids = log.requests.map((r) => r.headers['x-request-id']).filter((id) => id !== undefined);
    const replays = calls.slice(2);
    for (const replay of replays) expect(ids.filter((id) => id === replay.headers['x-request-id'])).toHaveLength(2);
    expect(log.of('initialize')[1]!.headers['x-request-id']).toBe(log.of('initialize')[0]!.headers['x-request-id']);
  });
});

describe.each([1, 2] as const)('invariant 10, SDK %s.x: a call never waits for new credentials that nothing is going to provide', (line) => {
  it.each(['auth-first', 'session-first'] as const)('%s: a static token revoked: five concurrent calls each get the 401 at once, as from the plain SDK', async (order) => {
    chaos = await startChaosServer({ faults: [NO_GET_STREAM] });
    gateway = await startAuthGateway(chaos.url, order);
    // Any wait of the engine is held for ever: a call held for a renewal would never end.
    const held: Sleep = (_ms, signal) => new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason), { once: true }));
    const client = await sdkClient(line, gateway.url, engine({ sleep: held }), () => {}, { headers: { authorization: 'Bearer alice.1' } });
    expect(await client.call('echo', { text: 'before' })).toBe('before');
    gateway.expireTokensBelow(2);
    if (order === 'session-first') gateway.endSessions();
    const outcomes = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => client.call('echo', { text: `call ${i}` })));
    expect(outcomes.map((o) => o.status)).toEqual(Array(5).fill('rejected'));
    // Each got the gateway's own 401 answer (its body), not an error of the engine's.
    for (const outcome of outcomes) expect(String((outcome as PromiseRejectedResult).reason)).toMatch(/invalid_token/);
  });
});

describe.each([1, 2] as const)('a call its caller gave up on, SDK %s.x', (line) => {
  it('is never sent again: cancelled while the re-initialization waits out a 503 Retry-After, it is not replayed on the new session', async () => {
    const log = await start();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let waiting!: () => void;
    const waited = new Promise<void>((resolve) => (waiting = resolve));
    // The engine's waits: the re-initialization's Retry-After (3 s) lasts until the test releases it; shorter
    // ones (the cap on reading a refusal) are never reached, as on a machine where the server answers at once.
    const sleep: Sleep = (ms, signal) => new Promise<void>((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      if (ms < 3_000) return;
      waiting();
      void released.then(resolve);
    });
    const wire = watchedFetch();
    const events: ResilienceEvent[] = [];
    const client = await sdkClient(line, log.url, engine({ sleep, fetch: wire.fetch, onEvent: (e) => events.push(e) }));
    await client.call('echo', { text: 'warm' });
    await evict();
    let restarting = true;
    log.intercept((r) => (r.rpcMethod === 'initialize' && restarting ? ((restarting = false), { status: 503, headers: { 'retry-after': '3' }, body: '' }) : undefined));
    const caller = new AbortController();
    const call = client.call('record', { key: 'send-email' }, { signal: caller.signal });
    await waited; // the re-initialization was answered 503: it waits
    caller.abort(new Error('the app gave up'));
    await expect(call).rejects.toThrow();
    await until(() => events.some((e) => e.type === 'gave-up'), 'the engine reading the SDK\'s notifications/cancelled');
    release();
    await until(() => log.of('initialize').filter((r) => r.headers['mcp-session-id'] === undefined).length === 3, 'the new session');
    await wire.quiet();
    expect(log.of('tools/call').filter((r) => (r.params!.arguments as { key?: string }).key === 'send-email')).toHaveLength(1);
    expect(chaos!.state().ledger).toEqual({});
    expect(events.filter((e) => e.type === 'gave-up')).toEqual([expect.objectContaining({ method: 'tools/call', code: 'CALL_CANCELLED' })]);
  });
});

describe.each([1, 2] as const)('a resumed stream, SDK %s.x', (line) => {
  it('that breaks again before any event is resumed from the same cursor, with the client\'s token and no spent DPoP proof: the call is answered, and ran once', async () => {
    const log = await start({ getStream: true });
    const events: ResilienceEvent[] = [];
    let proofs = 0;
    const client = await sdkClient(line, log.url, engine({ onEvent: (e) => events.push(e), sleep: async () => {} }), ({ headers }) => {
      headers.set('authorization', 'DPoP at-1');
      headers.set('dpop', `proof-${++proofs}`);
    });
    await chaos!.applyFaults([{ kind: 'drop-stream', afterEvents: 1, rpcMethod: 'tools/call' }]);
    let cuts = 0;
    log.intercept((r) => (r.httpMethod === 'GET' && r.headers['last-event-id'] !== undefined && cuts++ < 2 ? 'cut-stream' : undefined));
    expect(await client.call('record', { key: 'once' })).toBe('executions of once: 1');
    const resumes = log.of('GET').filter((r) => r.headers['last-event-id'] !== undefined).map((r) => r.headers['last-event-id']);
    expect(resumes).toHaveLength(3);
    expect(new Set(resumes).size).toBe(1); // the same cursor each time: no event moved it
    const resumed = log.of('GET').filter((r) => r.headers['last-event-id'] !== undefined);
    expect(resumed.map((r) => [r.headers.authorization, r.headers.dpop])).toEqual(Array(3).fill(['DPoP at-1', undefined]));
    expect(chaos!.state().ledger).toEqual({ once: 1 });
    expect(events.filter((e) => e.type === 'gave-up')).toEqual([]);
  });
});

/** A session a first client opened at `url` and the store keeps (its write awaited): the options another client resumes it with. */
async function storedSession(url: string) {
  const store = new MemorySessionStore();
  const writes: Promise<unknown>[] = [];
  const first = await connect(url, { sessionStore: store, identity: 'user:a', background: (task) => void writes.push(task) });
  closing.push(first);
  await first.callTool({ name: 'echo', arguments: { text: 'stored' } });
  await Promise.all(writes);
  return { sessionStore: store, resumeStored: true, identity: 'user:a' };
}

describe('one id space per session', () => {
  it('two clients resuming one stored session call at once on the official SDK server: each gets its own answer', async () => {
    const clock = manualClock();
    chaos = await startChaosServer({ clock, faults: [NO_GET_STREAM] });
    const resume = await storedSession(chaos.url);
    const [b, c] = [await connect(chaos.url, resume), await connect(chaos.url, resume)];
    closing.push(b, c);
    const slow = (client: typeof b, ms: number) => client.callTool({ name: 'slow', arguments: { ms, steps: 1 } }).then((r) => (r as { content: { text: string }[] }).content[0]!.text);
    const answers = Promise.all([slow(b, 100), slow(c, 200)]);
    await until(() => clock.pending === 2, 'both calls running on the server');
    await clock.advance(200);
    expect(await answers).toEqual(['slept 100 ms', 'slept 200 ms']);
    const calls = chaos.state().log.filter((e) => e.rpcMethod === 'tools/call' && e.sessionOrdinal === 1);
    expect(calls).toHaveLength(3); // one session: the first client's call and the two resumed clients'
    expect(new Set(calls.map((e) => e.rpcId)).size).toBe(3);
  });

  it('a resumed client\'s notifications/cancelled names its own call as the server knows it, in flight or answered: never another client\'s id', async () => {
    const clock = manualClock();
    chaos = await startChaosServer({ clock, faults: [NO_GET_STREAM] });
    log = await startHeaderLog(chaos.url);
    const resumed = await connect(log.url, await storedSession(log.url));
    closing.push(resumed);
    const caller = new AbortController();
    const call = resumed.callTool({ name: 'slow', arguments: { ms: 1_000, steps: 1 } }, undefined, { signal: caller.signal });
    await until(() => clock.pending === 1, 'the resumed client\'s call running on the server');
    caller.abort(new Error('the app gave up'));
    await expect(call).rejects.toThrow();
    await until(() => log!.of('notifications/cancelled').length === 1, 'the SDK\'s notifications/cancelled on the wire');
    const [, sent] = log.of('tools/call').map((r) => r.rpcId);
    expect(sent).toMatch(/^[0-9a-f]{12}\./); // the resumed client's own id space
    expect(log.of('notifications/cancelled')[0]!.params!.requestId).toBe(sent);
    // A cancel of a call already answered, sent as the SDK would, is named the same way: never the first client's id.
    await resumed.notification({ method: 'notifications/cancelled', params: { requestId: 0, reason: 'late' } });
    expect(log.of('notifications/cancelled')[1]!.params!.requestId).toBe((sent as string).replace(/\d+$/, '0'));
  });
});

describe('invariant 8: a session belongs to the client that opened it', () => {
  it('a session id the server handed to two clients of one fetch belongs to neither: no request of one carries the other\'s token', async () => {
    const log = await start();
    const fetch = engine();
    const post = (token: string, body: object, session?: string) => fetch(log.url, {
      method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', ...body }),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: token, ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}) },
    });
    const initialize = { id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'app', version: '1' } } };
    const a = await post('Bearer a', initialize);
    const id = a.headers.get('mcp-session-id')!;
    await a.text();
    // The server hands client B the very same session id.
    log.intercept((r) => (r.rpcMethod === 'initialize' && r.headers.authorization === 'Bearer b'
      ? { status: 200, headers: { 'content-type': 'application/json', 'mcp-session-id': id }, body: JSON.stringify({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'chaos', version: '1' } } }) }
      : undefined));
    await (await post('Bearer b', initialize)).text();
    log.intercept(() => undefined);
    await (await post('Bearer a', { method: 'notifications/initialized' }, id)).text();
    await evict();
    const echo = (token: string, text: string) => post(token, { id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text } } }, id);
    expect((await echo('Bearer a', 'from a')).status).toBe(404);
    expect((await echo('Bearer b', 'from b')).status).toBe(404);
    expect(log.of('initialize').map((r) => r.headers.authorization)).toEqual(['Bearer a', 'Bearer b']);
    for (const call of log.of('tools/call')) expect(call.headers.authorization).toBe(`Bearer ${(call.params!.arguments as { text: string }).text.slice(-1)}`);
  });
});
