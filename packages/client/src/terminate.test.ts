import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createResilientFetch } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';
import { startTamperProxy, type TamperProxy } from './test-support/tamper-proxy.ts';

let chaos: ChaosServer | undefined;
let proxy: TamperProxy | undefined;
const clients: Client[] = [];
afterEach(() => stopAll(clients.splice(0), [proxy, chaos]).then(() => (chaos = proxy = undefined)));

async function connect(fetch: typeof globalThis.fetch, url = chaos!.url) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { fetch });
  const client = new Client({ name: 'terminate', version: '0' });
  clients.push(client);
  await client.connect(transport);
  return { client, transport };
}
/** A poll's 10 s are a hang guard: what it waits for arrives within milliseconds. */
const HUNG = 'hung: not there within 10 s';
const call = (fetch: typeof globalThis.fetch, sessionId: string, url = chaos!.url) => fetch(url, {
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 'late', method: 'tools/list' }),
});

describe('a session the application ends itself (terminateSession: DELETE)', () => {
  it('is not mended: a late request with its id gets the server\'s answer as it is, and no session is opened', async () => {
    chaos = await startChaosServer();
    const events: ResilienceEvent[] = [];
    const resilient = createResilientFetch({ onEvent: (e) => events.push(e) });
    const { transport } = await connect(resilient);
    const ended = transport.sessionId!;
    await transport.terminateSession();
    expect(chaos.state().sessions).toEqual([]);
    const late = await call(resilient, ended); // a stream reconnecting in passing, say
    expect(late.status).toBe(404);
    expect(chaos.state().log.filter((e) => e.rpcMethod === 'initialize')).toHaveLength(1);
    expect(events.map((e) => e.type)).toEqual(['session-started']);
    // Connecting again through the same engine: a new session, and the engine mends it as before.
    const { client } = await connect(resilient);
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    await expect(client.callTool({ name: 'echo', arguments: { text: 'mended' } })).resolves.toMatchObject({ content: [{ text: 'mended' }] });
    expect(events.filter((e) => e.type === 'session-reinitialized')).toHaveLength(1);
  });

  it('a request in flight when the DELETE ends the session gets its answer as it is: never sent again with the id it ended', async () => {
    chaos = await startChaosServer();
    let ending = false;
    const sentAfter: { httpMethod: string; sessionId: string | undefined }[] = [];
    // The stream's GET reaches the server before the DELETE and is answered 500 after it, as a
    // server closing the session's streams may answer it (seen from @hono/mcp under load).
    let answer!: () => void;
    const failing = { answer: { status: 500, contentType: 'application/json', body: '{}' }, when: new Promise<void>((resolve) => (answer = resolve)) } as const;
    // Before that, GET is answered 405: the SDK keeps no stream of its own to reconnect.
    const noStream = { answer: { status: 405, contentType: 'text/plain', body: '' } } as const;
    proxy = await startTamperProxy(chaos.url, ({ httpMethod, sessionId }) => {
      if (ending) sentAfter.push({ httpMethod, sessionId });
      return httpMethod !== 'GET' ? 'forward' : ending ? failing : noStream;
    });
    const events: ResilienceEvent[] = [];
    const resilient = createResilientFetch({ onEvent: (e) => events.push(e), backoff: { initialMs: 1, maxMs: 5, maxAttempts: 3 } });
    const { transport } = await connect(resilient, proxy.url);
    const ended = transport.sessionId!;
    await expect.poll(() => proxy!.received('GET'), { interval: 5, timeout: 10_000, message: HUNG }).toBe(1); // the SDK's, refused
    ending = true;
    const stream = resilient(proxy.url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': ended, 'mcp-protocol-version': '2025-11-25' } });
    await expect.poll(() => sentAfter.length, { interval: 5, timeout: 10_000, message: HUNG }).toBe(1); // at the server, waiting for its answer
    await transport.terminateSession();
    answer();
    expect((await stream).status).toBe(500);
    expect(sentAfter).toEqual([{ httpMethod: 'GET', sessionId: ended }, { httpMethod: 'DELETE', sessionId: ended }]);
    expect(events.map((e) => e.type)).toEqual(['session-started']);
  });

  it('a request answered 404 while the application\'s DELETE is still on its way back opens no new session', async () => {
    chaos = await startChaosServer();
    let ending = false;
    // The server has ended the session for the DELETE, and says so to the stream's GET, before
    // the DELETE's own answer is back (seen with mcp-framework under load).
    let goneToGet!: () => void, deleted!: () => void;
    const gone = { answer: { status: 404, contentType: 'application/json', body: '{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}' } };
    const getAnswered = { ...gone, when: new Promise<void>((resolve) => (goneToGet = resolve)) } as const;
    const deleteAnswered = { answer: { status: 200, contentType: 'text/plain', body: '' }, when: new Promise<void>((resolve) => (deleted = resolve)) } as const;
    const noStream = { answer: { status: 405, contentType: 'text/plain', body: '' } } as const;
    proxy = await startTamperProxy(chaos.url, ({ httpMethod }) =>
      httpMethod === 'GET' ? (ending ? getAnswered : noStream) : httpMethod === 'DELETE' ? deleteAnswered : 'forward');
    const events: ResilienceEvent[] = [];
    const resilient = createResilientFetch({ onEvent: (e) => events.push(e) });
    const { transport } = await connect(resilient, proxy.url);
    await expect.poll(() => proxy!.received('GET'), { interval: 5, timeout: 10_000, message: HUNG }).toBe(1); // the SDK's, refused
    ending = true;
    const stream = resilient(proxy.url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-11-25' } });
    await expect.poll(() => proxy!.received('GET'), { interval: 5, timeout: 10_000, message: HUNG }).toBe(2);
    const terminating = transport.terminateSession();
    await expect.poll(() => proxy!.received('DELETE'), { interval: 5, timeout: 10_000, message: HUNG }).toBe(1);
    goneToGet();
    expect((await stream).status).toBe(404); // the server's answer, as it is
    deleted();
    await terminating;
    expect(proxy.received('initialize')).toBe(1);
    expect(events.map((e) => e.type)).toEqual(['session-started']);
  });

  it('a request carrying an id declared dead, in flight at the DELETE, is answered as it is: never sent again', async () => {
    chaos = await startChaosServer();
    let deadId: string | undefined;
    const sentAfterLoss: (string | undefined)[] = [];
    // The stream's GET is answered 500 once the test says: its retry goes out once the DELETE has ended the session.
    let answer!: () => void;
    const failing = { answer: { status: 500, contentType: 'application/json', body: '{}' }, when: new Promise<void>((resolve) => (answer = resolve)) } as const;
    // Before that, GET is answered 405: the SDK keeps no stream of its own, whose reconnect (a second later) would be counted.
    const noStream = { answer: { status: 405, contentType: 'text/plain', body: '' } } as const;
    proxy = await startTamperProxy(chaos.url, ({ httpMethod, sessionId }) => {
      if (deadId !== undefined) sentAfterLoss.push(sessionId);
      if (httpMethod !== 'GET') return 'forward';
      return deadId === undefined ? noStream : failing;
    });
    const events: ResilienceEvent[] = [];
    const resilient = createResilientFetch({ onEvent: (e) => events.push(e), backoff: { initialMs: 1, maxMs: 5, maxAttempts: 2 } });
    const { client, transport } = await connect(resilient, proxy.url);
    const first = transport.sessionId!;
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    await client.callTool({ name: 'echo', arguments: { text: 'mended' } });
    expect(events.filter((e) => e.type === 'session-lost')).toHaveLength(1);
    deadId = first;
    // A stream reconnecting with the id the SDK held before the loss, as an SDK's GET may.
    const gets = proxy.received('GET');
    const stream = resilient(proxy.url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': first, 'mcp-protocol-version': '2025-11-25' } });
    await expect.poll(() => proxy!.received('GET'), { interval: 5, timeout: 10_000, message: HUNG }).toBe(gets + 1); // it is at the server, waiting for its answer
    await transport.terminateSession();
    answer();
    expect((await stream).status).toBe(500); // the session is the application's to end: its answer, as it is
    expect(sentAfterLoss).toHaveLength(2); // the GET and the DELETE, and nothing more
    expect(sentAfterLoss).not.toContain(first);
  });

  it('a DELETE while the session is dead opens no new session only to end it', async () => {
    chaos = await startChaosServer();
    // The re-initialization is refused: the session stays dead, with no replacement.
    const refused = { answer: { status: 403, contentType: 'application/json', body: '{}' } } as const;
    proxy = await startTamperProxy(chaos.url, ({ rpcMethod, seen }) => (rpcMethod === 'initialize' && seen > 0 ? refused : 'forward'));
    const resilient = createResilientFetch();
    const { transport } = await connect(resilient, proxy.url);
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    expect((await call(resilient, transport.sessionId!, proxy.url).catch((e: unknown) => e))).toMatchObject({ code: 'REINITIALIZE_FAILED', details: { reason: 'refused', status: 403 } });
    const initializes = proxy.received('initialize'); // the call's re-initialization, and perhaps the reconnecting stream's
    const deleted = await resilient(proxy.url, { method: 'DELETE', headers: { 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-11-25' } });
    expect(deleted.status).toBe(400); // sent without the dead id: the server's answer, as it is
    expect(proxy.received('initialize')).toBe(initializes);
  });
});
