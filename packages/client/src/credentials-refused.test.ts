import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { Client, StreamableHTTPClientTransport, type AuthProvider } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createResilientFetch } from './resilient-fetch.ts';
import { startAuthGateway, type AuthGateway, type AuthOrder } from './test-support/auth-gateway.ts';
import { stopAll } from './test-support/stop-all.ts';
import { until } from './test-support/until.ts';

let chaos: ChaosServer | undefined;
let gateway: AuthGateway | undefined;
const closing: { close(): Promise<unknown> }[] = [];
afterEach(() => stopAll(closing.splice(0), [gateway, chaos]).then(() => (chaos = gateway = undefined)));

/**
 * An SDK 2.x client whose `AuthProvider` hands out `alice.N` and, asked to mend a 401, refreshes
 * to N + 1 (unless `refreshable` is false), through the engine, behind a gateway of `order`.
 */
async function start(order: AuthOrder, { refreshable = true, refreshing = async () => {} } = {}) {
  chaos = await startChaosServer();
  gateway = await startAuthGateway(chaos.url, order);
  const events: ResilienceEvent[] = [];
  const fetch = createResilientFetch({ renewsCredentials: true, onEvent: (e) => events.push(e) });
  closing.push(fetch);
  const auth = { version: 1, refreshes: 0 };
  const authProvider: AuthProvider = {
    token: async () => `alice.${auth.version}`,
    onUnauthorized: async () => {
      auth.refreshes++;
      await refreshing();
      if (refreshable) auth.version++;
    },
  };
  const client = new Client({ name: 'alice', version: '0' });
  closing.push(client);
  // The requests the SDK hands the engine, counted: what reached it, whether or not it went out.
  const handed = { calls: 0 };
  const counted: typeof globalThis.fetch = (input, init) => ((handed.calls += +String(init?.body).includes('"tools/call"')), fetch(input, init));
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { fetch: counted, authProvider }));
  const echo = async (text: string) =>
    ((await client.callTool({ name: 'echo', arguments: { text } })) as { content: { text: string }[] }).content[0]!.text;
  /** A long pause: the token expired and the server ended the session. */
  const pause = () => {
    gateway!.expireTokensBelow(auth.version + 1);
    gateway!.endSessions();
  };
  return { gateway, auth, echo, pause, events, handed };
}

describe.each(['session-first', 'auth-first'] as const)('a session and a token lost together (%s)', (order) => {
  it('the next call is answered: one refresh, one new session, opened with the new token', async () => {
    const { gateway, auth, echo, pause } = await start(order);
    expect(await echo('before')).toBe('before');
    pause();
    expect(await echo('after')).toBe('after');
    expect(auth.refreshes).toBe(1);
    // Session first, the engine's initialize meets the expired token, and its 401 goes to the SDK.
    expect(gateway.initializes()).toEqual(order === 'session-first' ? ['1:200', '1:401', '2:200'] : ['1:200', '2:200']);
    expect(await echo('later')).toBe('later');
    expect(gateway.initializes()).toHaveLength(order === 'session-first' ? 3 : 2);
  });

  it('twenty concurrent calls: one refresh, one new session, every call answered with the new token', async () => {
    const { gateway, auth, echo, pause } = await start(order);
    await echo('before');
    pause();
    const texts = Array.from({ length: 20 }, (_, i) => `call ${i}`);
    expect(await Promise.all(texts.map(echo))).toEqual(texts);
    const opened = gateway.initializes().filter((i) => i.endsWith(':200'));
    expect(opened).toEqual(['1:200', `${auth.version}:200`]);
    // One call's 401 goes to the SDK; the others wait for its new token, then go again with it (auth
    // first, each met its own 401; without the engine, the SDK would refresh for each of them).
    expect(auth.refreshes).toBe(1);
    const calls = gateway.records.filter((r) => r.rpcMethod === 'tools/call' && r.status === 200);
    expect(calls.filter((r) => r.tokenVersion < 2)).toEqual([{ httpMethod: 'POST', rpcMethod: 'tools/call', tokenVersion: 1, sessionSent: true, status: 200 }]);
  });

  it('twenty calls meet the expired token, ten of them begun while its refresh is under way: one refresh, every call answered', async () => {
    let refreshStarted!: () => void, finishRefresh!: () => void;
    const started = new Promise<void>((resolve) => (refreshStarted = resolve));
    const finished = new Promise<void>((resolve) => (finishRefresh = resolve));
    const { gateway, auth, echo, pause, handed } = await start(order, { refreshing: () => (refreshStarted(), finished) });
    await echo('before');
    pause();
    const first = Array.from({ length: 10 }, (_, i) => echo(`first ${i}`));
    await started; // the provider is refreshing: ten more calls begin now, with the old token
    const during = Array.from({ length: 10 }, (_, i) => echo(`during ${i}`));
    const before = handed.calls;
    await until(() => handed.calls === before + 10, 'the ten calls reaching the engine');
    finishRefresh();
    expect(await Promise.all([...first, ...during])).toEqual([...Array.from({ length: 10 }, (_, i) => `first ${i}`), ...Array.from({ length: 10 }, (_, i) => `during ${i}`)]);
    expect(auth.refreshes).toBe(1);
    expect(gateway.initializes().filter((i) => i.endsWith(':200'))).toEqual(['1:200', '2:200']);
    // The calls begun during the refresh waited for it: none of them went out with the old token.
    const answered = gateway.records.filter((r) => r.rpcMethod === 'tools/call' && r.status === 200);
    expect(answered.filter((r) => r.tokenVersion < 2)).toHaveLength(1); // 'before'
  });

  it('after the one refresh, the first request with the new token goes alone: the calls that waited learn what it met, and none carries the session it found gone', async () => {
    const { gateway, auth, echo, pause } = await start(order);
    await echo('before');
    pause();
    const texts = Array.from({ length: 5 }, (_, i) => `call ${i}`);
    expect(await Promise.all(texts.map(echo))).toEqual(texts);
    expect(auth.refreshes).toBe(1);
    // With the new token, the dead session was carried by one request (the one that found it gone), never by the waiting four.
    const onDeadSession = gateway.records.filter((r) => r.tokenVersion === 2 && r.sessionSent && r.status === 404);
    expect(onDeadSession).toHaveLength(order === 'auth-first' ? 1 : 0);
  });

  it('a token that cannot be refreshed: the SDK\'s own auth error, once, and no loop', async () => {
    const { gateway, auth, echo, pause } = await start(order, { refreshable: false });
    await echo('before');
    pause();
    const failed = await echo('after').then(() => undefined, (error: unknown) => error);
    expect(failed).toMatchObject({ name: 'SdkHttpError', message: expect.stringMatching(/401/) });
    expect(auth.refreshes).toBe(1);
    // Session first, the SDK's second try with the same token gets the engine's 401 at once: nothing more is sent.
    expect(gateway.initializes()).toEqual(order === 'session-first' ? ['1:200', '1:401'] : ['1:200']);
  });

  it('a token refreshed before the loss: the new session is opened with it, never with the old one', async () => {
    const { gateway, auth, echo, pause } = await start(order);
    await echo('before');
    auth.version = 2; // the application refreshed ahead of expiry
    expect(await echo('refreshed')).toBe('refreshed');
    pause();
    expect(await echo('after')).toBe('after');
    // Never with token 1: session first, token 2 (the latest) meets the expiry, then 3 opens it.
    expect(gateway.initializes()).toEqual(order === 'session-first' ? ['1:200', '2:401', '3:200'] : ['1:200', '3:200']);
  });
});

describe('a re-initialization refused for its scope (403 insufficient_scope)', () => {
  it('goes to the call as its answer, challenge and all, for the SDK to ask for the scope (a 403 without it stays REINITIALIZE_FAILED: waits.test.ts)', async () => {
    chaos = await startChaosServer();
    gateway = await startAuthGateway(chaos.url, 'session-first');
    const fetch = createResilientFetch();
    closing.push(fetch);
    const post = (body: object, headers: Record<string, string>) => fetch(gateway!.url, {
      method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', ...body }),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer alice.1', ...headers },
    });
    const opened = await post({ id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'a', version: '0' } } }, {});
    const session = { 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    await opened.text();
    await (await post({ method: 'notifications/initialized' }, session)).text();
    gateway.scopeBelow(2);
    gateway.endSessions();
    const answer = await post({ id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } }, session);
    expect(answer.status).toBe(403);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope", scope="mcp:tools"');
    expect(await answer.text()).toBe('{"error":"insufficient_scope"}');
    expect(gateway.initializes()).toEqual(['1:200', '1:403']);
  });
});
