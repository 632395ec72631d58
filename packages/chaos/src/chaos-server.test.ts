import { request } from 'node:http';
import { redactSessionId } from '@mcp-resilience/core';
import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from './chaos-clock.ts';
import { startChaosServer, type ChaosServer, type ChaosServerOptions } from './chaos-server.ts';
import { call, callTool, inject, openSession, post, resultText, stateOf, until } from './test-support/raw-client.ts';

let chaos: ChaosServer | undefined;
afterEach(async () => {
  await chaos?.stop();
  chaos = undefined;
});
const start = async (options: ChaosServerOptions = {}) => (chaos = await startChaosServer(options));

/** POSTs a request and reads its response until it ends or breaks: what arrived, and whether it broke. */
async function readUntilBreak(url: string, message: unknown, headers: Record<string, string>): Promise<{ received: string; broke: boolean }> {
  const response = await fetch(url, {
    method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(message),
  });
  const reader = response.body!.getReader();
  let received = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { received, broke: false };
      received += Buffer.from(value).toString('utf8');
    }
  } catch {
    return { received, broke: true };
  }
}
const sessionHeaders = (session: string, revision = '2025-11-25') => ({ 'mcp-session-id': session, 'mcp-protocol-version': revision });

/** Whether the server accepts a connection now. */
const listening = (url: string) => fetch(url, { method: 'OPTIONS' }).then(() => true, () => false);

describe('chaos server: the MCP server behind the faults', () => {
  it('serves the tools on 127.0.0.1 with a session id', async () => {
    const { url } = await start();
    expect(new URL(url).hostname).toBe('127.0.0.1');
    const session = await openSession(url);
    expect(resultText(await callTool(url, session, 'echo', { text: 'hi' }))).toBe('hi');
    expect(resultText(await callTool(url, session, 'add', { a: 2, b: 3 }))).toBe('5');
    const tools = await call(url, session, 'tools/list');
    const listed = (tools.messages[0] as { result: { tools: { name: string; annotations: object }[] } }).result.tools;
    expect(listed.map((t) => t.name).sort()).toEqual(['add', 'echo', 'job', 'record', 'slow']);
    expect(listed.find((t) => t.name === 'record')?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
  });

  it('answers with JSON bodies instead of event streams when asked (jsonResponses)', async () => {
    const { url } = await start({ jsonResponses: true });
    const session = await openSession(url);
    const reply = await callTool(url, session, 'echo', { text: 'as json' });
    expect(reply.headers.get('content-type')).toContain('application/json');
    expect(resultText(reply)).toBe('as json');
  });

  it('counts every execution of record in the ledger', async () => {
    const { url } = await start();
    const session = await openSession(url);
    await callTool(url, session, 'record', { key: 'order-1' });
    expect(resultText(await callTool(url, session, 'record', { key: 'order-1' }))).toBe('executions of order-1: 2');
    expect((await stateOf(chaos!)).ledger).toEqual({ 'order-1': 2 });
  });

  it('streams progress from slow, with event ids', async () => {
    const { url } = await start();
    const session = await openSession(url);
    const reply = await call(url, session, 'tools/call', { name: 'slow', arguments: { ms: 60, steps: 3 }, _meta: { progressToken: 'p' } });
    expect(reply.messages.filter((m) => m.method === 'notifications/progress')).toHaveLength(3);
    expect(resultText(reply)).toBe('slept 60 ms');
    expect(reply.eventIds.length).toBeGreaterThanOrEqual(4);
  });

  it('records subscriptions and the log level per session in state', async () => {
    const { url } = await start();
    const session = await openSession(url);
    await call(url, session, 'resources/subscribe', { uri: 'chaos://counter' });
    await call(url, session, 'logging/setLevel', { level: 'debug' });
    const [view] = (await stateOf(chaos!)).sessions;
    expect(view).toMatchObject({ session: redactSessionId(session), ordinal: 1, subscriptions: ['chaos://counter'], logLevel: 'debug' });
  });

  it('logs every request on the wire, with redacted session ids', async () => {
    const { url } = await start();
    const session = await openSession(url);
    await callTool(url, session, 'echo', { text: 'x' });
    const log = (await stateOf(chaos!)).log;
    expect(log.map((e) => e.rpcMethod)).toEqual(['initialize', 'notifications/initialized', 'tools/call']);
    expect(log[2]).toMatchObject({ httpMethod: 'POST', session: redactSessionId(session), sessionOrdinal: 1, status: 200 });
    expect(JSON.stringify(log)).not.toContain(session);
  });
});

describe('fault: evict', () => {
  it('ends the chosen sessions; the others live on', async () => {
    const { url } = await start();
    const [a, b, c] = [await openSession(url), await openSession(url), await openSession(url)];
    await inject(chaos!, { kind: 'evict', session: 'oldest' });
    expect((await callTool(url, a, 'echo', { text: 'x' })).status).toBe(404);
    expect((await callTool(url, b, 'echo', { text: 'x' })).status).toBe(200);
    await inject(chaos!, { kind: 'evict', session: 3 });
    expect((await callTool(url, c, 'echo', { text: 'x' })).status).toBe(404);
    await inject(chaos!, { kind: 'evict', session: 'all' });
    expect((await callTool(url, b, 'echo', { text: 'x' })).status).toBe(404);
    expect((await stateOf(chaos!)).log.at(-1)).toMatchObject({ status: 404, fault: 'session-gone typescript-sdk' });
  });

  it('leaves new sessions possible', async () => {
    const { url } = await start();
    await openSession(url);
    await inject(chaos!, { kind: 'evict', session: 'all' });
    const fresh = await openSession(url);
    expect(resultText(await callTool(url, fresh, 'echo', { text: 'again' }))).toBe('again');
  });
});

describe('fault: restart', () => {
  it('loses every session and resets the uptime, on the same port', async () => {
    const clock = manualClock();
    const { url } = await start({ dialect: 'amdahl', clock });
    const session = await openSession(url);
    await clock.advance(1_100);
    expect((await stateOf(chaos!)).uptimeSeconds).toBeGreaterThanOrEqual(1);
    await inject(chaos!, { kind: 'restart' });
    const reply = await callTool(url, session, 'echo', { text: 'x' });
    expect(reply.status).toBe(404);
    expect(reply.messages[0]).toMatchObject({ error: { code: -32000, data: { reason: 'session_not_found', server_uptime_seconds: 0 } } });
    expect((await stateOf(chaos!)).sessions).toEqual([]);
    expect(resultText(await callTool(url, await openSession(url), 'echo', { text: 'back' }))).toBe('back');
  });

  it('refuses connections while down, when asked', async () => {
    const clock = manualClock();
    const { url } = await start({ clock });
    await inject(chaos!, { kind: 'restart', downMs: 300 });
    await expect(fetch(url, { method: 'POST', body: '{}' })).rejects.toThrow();
    await clock.advance(299);
    expect(await listening(url)).toBe(false); // down for as long as it said …
    await clock.advance(1); // … and listening again once that is over
    await expect(openSession(url)).resolves.toEqual(expect.any(String));
  });
});

describe('fault: idle-budget', () => {
  it('expires a session idle past the budget', async () => {
    const clock = manualClock();
    const { url } = await start({ clock });
    const session = await openSession(url);
    await inject(chaos!, { kind: 'idle-budget', ms: 1_000 });
    expect((await callTool(url, session, 'echo', { text: 'x' })).status).toBe(200);
    await clock.advance(999);
    expect(chaos!.state().sessions).toHaveLength(1); // within its budget
    await clock.advance(201);
    expect((await callTool(url, session, 'echo', { text: 'x' })).status).toBe(404);
  });

  it('counts an open GET stream as use', async () => {
    const clock = manualClock();
    const { url } = await start({ clock });
    const listening = await openSession(url);
    const idle = await openSession(url);
    const stream = new AbortController();
    const get = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': listening, 'mcp-protocol-version': '2025-11-25' }, signal: stream.signal });
    expect(get.status).toBe(200);
    await inject(chaos!, { kind: 'idle-budget', ms: 200 });
    await clock.advance(350);
    const sessions = (await stateOf(chaos!)).sessions;
    expect(sessions.map((s) => s.ordinal)).toEqual([1]);
    expect(sessions[0]).toMatchObject({ openStreams: 1, idleMs: 0 });
    expect((await callTool(url, idle, 'echo', { text: 'x' })).status).toBe(404);
    stream.abort();
    expect((await callTool(url, listening, 'echo', { text: 'x' })).status).toBe(200);
  });
});

describe('fault: capacity', () => {
  it('evicts the least recently used idle session, never one in use', async () => {
    const clock = manualClock();
    const { url } = await start({ clock });
    const first = await openSession(url);
    const second = await openSession(url);
    await inject(chaos!, { kind: 'capacity', max: 2 });
    // first starts a slow call, then second is used: first is the least recently used, but busy.
    const busy = callTool(url, first, 'slow', { ms: 2_000 });
    await until('the slow call in flight on session 1', () => chaos!.state().sessions.some((s) => s.ordinal === 1 && s.inFlight === 1));
    await callTool(url, second, 'echo', { text: 'x' });
    await openSession(url);
    await clock.advance(2_000);
    expect(resultText(await busy)).toBe('slept 2000 ms');
    expect((await callTool(url, second, 'echo', { text: 'x' })).status).toBe(404);
    expect((await callTool(url, first, 'echo', { text: 'x' })).status).toBe(200);
    expect((await stateOf(chaos!)).sessions.map((s) => s.ordinal)).toEqual([1, 3]);
  });
});

describe('fault: status', () => {
  it('answers the next requests with 429 and Retry-After, then serves again', async () => {
    const { url } = await start();
    const session = await openSession(url);
    await inject(chaos!, { kind: 'status', status: 429, count: 2, retryAfter: '1' });
    for (let i = 0; i < 2; i++) {
      const reply = await callTool(url, session, 'echo', { text: 'x' });
      expect(reply.status).toBe(429);
      expect(reply.headers.get('retry-after')).toBe('1');
    }
    expect((await callTool(url, session, 'echo', { text: 'x' })).status).toBe(200);
    expect((await stateOf(chaos!)).log.filter((e) => e.fault === 'status 429')).toHaveLength(2);
  });

  it.each([500, 502, 503, 504])('answers %i', async (status) => {
    const { url } = await start();
    const session = await openSession(url);
    await inject(chaos!, { kind: 'status', status, retryAfter: 'Wed, 21 Oct 2026 07:28:00 GMT', body: '<html>upstream error</html>' });
    const reply = await callTool(url, session, 'record', { key: 'k' });
    expect(reply).toMatchObject({ status, text: '<html>upstream error</html>' });
    expect(reply.headers.get('retry-after')).toBe('Wed, 21 Oct 2026 07:28:00 GMT');
    expect((await stateOf(chaos!)).ledger).toEqual({}); // the fault layer answered: the tool never ran
  });

  it('passes hostile Retry-After values as they are, and matches by method', async () => {
    const { url } = await start();
    const session = await openSession(url);
    await inject(chaos!, { kind: 'status', status: 429, retryAfter: '99999999999999999999', rpcMethod: 'tools/call' });
    expect((await call(url, session, 'tools/list')).status).toBe(200);
    expect((await callTool(url, session, 'echo', { text: 'x' })).headers.get('retry-after')).toBe('99999999999999999999');
  });
});

describe('fault: drop-stream', () => {
  it('breaks the stream before the response, with event ids and a retry field, resumable by GET + Last-Event-ID', async () => {
    const clock = manualClock();
    const { url } = await start({ clock });
    const session = await openSession(url);
    await inject(chaos!, { kind: 'drop-stream', afterEvents: 1, eventIds: true, retryMs: 100 });
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 77, method: 'tools/call', params: { name: 'slow', arguments: { ms: 100, steps: 1 }, _meta: { progressToken: 't' } } }),
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let received = '';
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        received += Buffer.from(value).toString('utf8');
      }
    })();
    await clock.advance(100); // the tool's time passes: its progress, then its response, stored, breaks the stream
    await expect(reading).rejects.toThrow();
    expect(received).toContain('retry: 100');
    expect(received).toContain('notifications/progress');
    expect(received).not.toContain('"id":77');
    const lastId = [...received.matchAll(/^id: ?(.+)$/gm)].at(-1)?.[1];
    expect(lastId).toBeDefined();
    // The response was stored before it was written (and broke the stream): it waits in the event store.
    const resumed = await fetch(url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25', 'last-event-id': lastId! },
    });
    const reader2 = resumed.body!.getReader();
    let replay = '';
    while (!replay.includes('"id":77')) replay += Buffer.from((await reader2.read()).value!).toString('utf8');
    await reader2.cancel();
    expect(replay).toContain('slept 100 ms');
    expect((await stateOf(chaos!)).log.find((e) => e.rpcId === 77)).toMatchObject({ fault: 'drop-stream' });
  });

  it('strips the event ids when asked, so the stream cannot be resumed', async () => {
    const { url } = await start();
    const session = await openSession(url);
    await inject(chaos!, { kind: 'drop-stream', afterEvents: 1, eventIds: false });
    const message = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'slow', arguments: { ms: 50, steps: 2 }, _meta: { progressToken: 't' } } };
    const { received, broke } = await readUntilBreak(url, message, sessionHeaders(session));
    expect(broke).toBe(true);
    expect(received).toContain('notifications/progress'); // the one event delivered …
    expect(received).not.toMatch(/^id:/m); // … without an id to resume from
    expect(received).not.toContain('slept');
  });

  it('breaks before a response that comes with no other event, after flushing the priming event', async () => {
    const { url } = await start();
    const session = await openSession(url);
    await inject(chaos!, { kind: 'drop-stream', afterEvents: 1 });
    const { received, broke } = await readUntilBreak(url, { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'record', arguments: { key: 'r' } } }, sessionHeaders(session));
    expect(broke).toBe(true);
    const cursor = /^id: ?(.+)$/m.exec(received)?.[1];
    expect(cursor).toBeDefined();
    const resumed = await fetch(url, { headers: { accept: 'text/event-stream', ...sessionHeaders(session), 'last-event-id': cursor! } });
    const reader = resumed.body!.getReader();
    let replay = '';
    while (!replay.includes('"id":6')) replay += Buffer.from((await reader.read()).value!).toString('utf8');
    await reader.cancel();
    expect(replay).toContain('executions of r: 1');
    expect((await stateOf(chaos!)).ledger).toEqual({ r: 1 });
  });

  it('sends the retry field before breaking, even when nothing else came first (2025-06-18: no priming event)', async () => {
    const { url } = await start();
    const init = await post(url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
    const session = init.headers.get('mcp-session-id')!;
    await inject(chaos!, { kind: 'drop-stream', afterEvents: 0, retryMs: 100 });
    const { received, broke } = await readUntilBreak(url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } }, sessionHeaders(session, '2025-06-18'));
    expect(broke).toBe(true);
    expect(received).toContain('retry: 100');
    expect(received).not.toContain('"id":2');
  });

  it('keeps each session\'s stream cursors to itself: an old session\'s cursor resumes nothing on a new one', async () => {
    const { url } = await start();
    const first = await openSession(url);
    await inject(chaos!, { kind: 'drop-stream', afterEvents: 1 });
    const { received } = await readUntilBreak(url, { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'record', arguments: { key: 'old' } } }, sessionHeaders(first));
    const cursor = /^id: ?(.+)$/m.exec(received)![1]!;
    await inject(chaos!, { kind: 'restart' });
    const second = await openSession(url);
    const stray = new AbortController();
    const resumed = await fetch(url, { headers: { accept: 'text/event-stream', ...sessionHeaders(second), 'last-event-id': cursor }, signal: stray.signal });
    // Refused (400: a cursor this session never issued), or were it found, replayed before the
    // headers on a stream that ending the session ends: either way, all the server sent is then in.
    await inject(chaos!, { kind: 'evict', session: 'all' });
    const arrived = await resumed.text();
    stray.abort();
    expect(arrived).not.toContain('"id":8');
  });

  it('does not touch initialize', async () => {
    const { url } = await start();
    await inject(chaos!, { kind: 'drop-stream' });
    const session = await openSession(url);
    const reply = await callTool(url, session, 'echo', { text: 'x' }).catch(() => 'broken' as const);
    expect(reply).toBe('broken');
  });
});

describe('fault: refuse', () => {
  it('refuses connections for a while, then serves the same sessions again, and says so in state', async () => {
    const clock = manualClock(5_000);
    const { url } = await start({ clock });
    const session = await openSession(url);
    await clock.advance(40);
    await inject(chaos!, { kind: 'refuse', ms: 300 });
    expect(chaos!.state().history).toEqual([{ kind: 'refuse', atMs: 40, untilMs: 340 }]);
    const error = await fetch(url, { method: 'POST', body: '{}' }).then(() => undefined, (e: Error) => e);
    expect((error?.cause as { code?: string } | undefined)?.code).toBe('ECONNREFUSED');
    await clock.advance(300);
    expect(resultText(await callTool(url, session, 'echo', { text: 'back' }))).toBe('back');
  });
});

describe('fault: dialect', () => {
  const cases = {
    amdahl: { status: 404, type: 'application/json', code: -32000 },
    'typescript-sdk': { status: 404, type: null, code: -32001 },
    'python-sdk': { status: 404, type: 'application/json', code: -32600 },
    'go-sdk': { status: 404, type: 'text/plain; charset=utf-8', code: undefined },
    'express-400': { status: 400, type: 'application/json; charset=utf-8', code: -32000 },
    'server-everything': { status: 400, type: 'application/json; charset=utf-8', code: -32000 },
    'typescript-sdk-express': { status: 404, type: 'application/json; charset=utf-8', code: -32001 },
    'typescript-sdk-uninitialized': { status: 400, type: 'application/json', code: -32000 },
    'mcp-proxy': { status: 404, type: 'application/json; charset=utf-8', code: -32001 },
  } as const;

  it.each(Object.entries(cases))('%s says "session gone" its way', async (name, expected) => {
    const { url } = await start();
    const session = await openSession(url);
    await inject(chaos!, [{ kind: 'dialect', name: name as keyof typeof cases }, { kind: 'evict', session: 'all' }]);
    const reply = await callTool(url, session, 'echo', { text: 'x' });
    expect(reply.status).toBe(expected.status);
    expect(reply.headers.get('content-type')).toBe(expected.type);
    if (expected.code === undefined) expect(reply.text).toBe('session not found\n');
    else expect(JSON.parse(reply.text)).toMatchObject({ error: { code: expected.code } });
  });

  it('answers an id the server never issued the same way', async () => {
    const { url } = await start({ dialect: 'python-sdk' });
    const reply = await callTool(url, 'never-issued', 'echo', { text: 'x' });
    expect(reply.text).toBe('{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Session not found"}}');
  });
});

describe('change-resource', () => {
  it('notifies a subscribed session on its GET stream', async () => {
    const { url } = await start();
    const session = await openSession(url);
    await call(url, session, 'resources/subscribe', { uri: 'chaos://counter' });
    const get = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } });
    const reader = get.body!.getReader(); // its headers came once the server held the stream: it is listening
    await inject(chaos!, { kind: 'change-resource', text: '42' });
    let text = '';
    while (!text.includes('notifications/resources/updated')) text += Buffer.from((await reader.read()).value!).toString('utf8');
    await reader.cancel();
    const read = await call(url, session, 'resources/read', { uri: 'chaos://counter' });
    expect(read.messages[0]).toMatchObject({ result: { contents: [{ text: '42' }] } });
  });
});

describe('control API', () => {
  it('rejects a bad fault with a clear error and applies nothing', async () => {
    await start();
    for (const bad of [{ kind: 'explode' }, { kind: 'status', status: 200 }, { kind: 'status', status: 429, retryAfter: 'a\r\nb' }, { kind: 'dialect', name: 'cobol' }]) {
      const response = await inject(chaos!, bad as never);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/kind|status|retryAfter|dialect/);
    }
    const notJson = await fetch(`${chaos!.control}/faults`, { method: 'POST', body: '{' });
    expect(notJson.status).toBe(400);
    expect((await stateOf(chaos!)).faults.pendingStatus).toEqual([]);
  });

  it('reset clears faults, ledger and log but keeps sessions', async () => {
    const { url } = await start();
    const session = await openSession(url);
    await callTool(url, session, 'record', { key: 'k' });
    await inject(chaos!, [{ kind: 'status', status: 503, count: 5 }, { kind: 'capacity', max: 1 }]);
    await fetch(`${chaos!.control}/reset`, { method: 'POST' });
    const state = await stateOf(chaos!);
    expect(state).toMatchObject({ ledger: {}, log: [], faults: { pendingStatus: [], capacity: null, dialect: 'typescript-sdk' } });
    expect(state.sessions).toHaveLength(1);
  });
});

describe('DELETE', () => {
  it('ends the session for the fault layer too: afterwards it is answered in the dialect', async () => {
    const { url } = await start({ dialect: 'amdahl' });
    const session = await openSession(url);
    expect((await fetch(url, { method: 'DELETE', headers: sessionHeaders(session) })).status).toBe(200);
    expect((await stateOf(chaos!)).sessions).toEqual([]);
    const reply = await callTool(url, session, 'echo', { text: 'x' });
    expect(reply.messages[0]).toMatchObject({ error: { code: -32000, data: { reason: 'session_not_found' } } });
  });
});

describe('the control API is for this machine only', () => {
  it('sends no CORS headers and refuses a foreign Origin or Host', async () => {
    const { control } = await start();
    const own = await fetch(`${control}/state`);
    expect(own.status).toBe(200);
    expect(own.headers.get('access-control-allow-origin')).toBeNull();
    expect((await fetch(`${control}/state`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await fetch(`${control}/faults`, { method: 'POST', headers: { origin: 'https://evil.example' }, body: '{"kind":"restart"}' })).status).toBe(403);
    // fetch will not send a Host of its own choosing; a DNS-rebinding page's request would.
    const rebound = await new Promise<number>((resolve, reject) => {
      request(`${control}/state`, { headers: { host: 'rebound.example' } }, (res) => (res.resume(), resolve(res.statusCode!))).on('error', reject).end();
    });
    expect(rebound).toBe(403);
    expect(chaos!.state().history).toEqual([]);
  });
});

describe('CORS', () => {
  it('exposes Mcp-Session-Id to browsers, unless told not to', async () => {
    const { url } = await start();
    const exposed = await post(url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { origin: 'http://localhost:5173' });
    expect(exposed.headers.get('access-control-expose-headers')).toContain('mcp-session-id');
    expect(exposed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    await chaos!.stop();
    const hidden = await start({ exposeSessionId: false });
    const reply = await post(hidden.url, { jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(reply.headers.get('access-control-expose-headers')).not.toContain('mcp-session-id');
    const preflight = await fetch(hidden.url, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-session-id');
  });
});

describe('schedule', () => {
  it('applies faults at their times', async () => {
    const clock = manualClock();
    const { url } = await start({ clock, schedule: [{ atMs: 1_000, fault: { kind: 'evict', session: 'all' } }] });
    const session = await openSession(url);
    await clock.advance(999);
    expect((await callTool(url, session, 'echo', { text: 'x' })).status).toBe(200);
    await clock.advance(1);
    expect((await callTool(url, session, 'echo', { text: 'x' })).status).toBe(404);
  });
});

describe('2026-07-28 mode behind the fault layer', () => {
  const modern = (id: number, method: string, params: Record<string, unknown>, name?: string) => ({
    message: {
      jsonrpc: '2.0', id, method,
      params: { ...params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, progressToken: `p${id}` } },
    },
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }) },
  });

  it('has no sessions: a stray Mcp-Session-Id is ignored, never answered as a lost session', async () => {
    const { url } = await start({ mode: 'modern', dialect: 'amdahl' });
    const { message, headers } = modern(1, 'tools/call', { name: 'echo', arguments: { text: 'stateless' } }, 'echo');
    await inject(chaos!, { kind: 'evict', session: 'all' });
    const reply = await post(url, message, { ...headers, 'mcp-session-id': 'from-an-old-session' });
    expect(reply.status).toBe(200);
    expect(resultText(reply)).toBe('stateless');
    expect(reply.headers.get('mcp-session-id')).toBeNull();
    expect((await fetch(url, { headers: { accept: 'text/event-stream' } })).status).toBe(405);
  });

  it('breaks a stream without event ids: nothing to resume, the request is lost', async () => {
    const { url } = await start({ mode: 'modern' });
    await inject(chaos!, { kind: 'drop-stream', afterEvents: 1 });
    const { message, headers } = modern(2, 'tools/call', { name: 'slow', arguments: { ms: 100, steps: 2 } }, 'slow');
    const { received, broke } = await readUntilBreak(url, message, headers);
    expect(broke).toBe(true);
    expect(received).toContain('notifications/progress');
    expect(received).not.toContain('slept');
    expect(received).not.toMatch(/^id:/m);
    expect((await stateOf(chaos!)).log.at(-1)).toMatchObject({ rpcMethod: 'tools/call', fault: 'drop-stream' });
  });
});

describe('fault: drop-stream on a JSON response', () => {
  it('cuts the connection before the body: the request ran, its answer never came', async () => {
    const { url } = await start({ mode: 'modern' });
    await inject(chaos!, { kind: 'drop-stream', rpcMethod: 'tools/call' });
    const message = {
      jsonrpc: '2.0', id: 3, method: 'tools/call',
      params: { name: 'record', arguments: { key: 'lost-answer' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } },
    };
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'record' };
    await expect(post(url, message, headers)).rejects.toThrow();
    expect((await stateOf(chaos!)).ledger).toEqual({ 'lost-answer': 1 });
  });
});
