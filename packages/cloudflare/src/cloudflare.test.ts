// Runs inside workerd: every request below is a Worker request (the test Worker's handler, with
// an execution context the test waits on) or the test's own, against real mcp-chaos servers on 127.0.0.1 started by the Node side (globalSetup).
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RUNTIME } from '@mcp-resilience/client/adapter';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  budgetDeadline, CfWorkerJsonSchemaValidator, connect, durableSessionStore, MemorySessionStore, resilienceMiddleware, sessionStoreKey, workersRuntime,
  type ResilienceEvent,
  type SessionStoreNamespace,
} from './index.ts';
import { evictAll, initializes, poolServer, type PoolServer } from './test-support/chaos-pool.ts';
import worker from './test-support/worker.ts';

const bindings = env as unknown as Record<'MCP_SESSIONS' | 'MCP_AGENT' | 'LEGACY_SESSIONS', SessionStoreNamespace>;
const sessions = bindings.MCP_SESSIONS;

interface Answer {
  readonly text: string;
  readonly events: ResilienceEvent[];
  readonly capabilities: { tools?: unknown } | null;
  readonly backgroundTasks: number;
}
/** One Worker request, ended as workerd ends it: after its background work (the store writes), so the next one reads them. */
async function call(server: PoolServer, text: string, name: string): Promise<Answer> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`http://worker/call?${new URLSearchParams({ url: server.url, text, name })}`), env as never, ctx);
  await waitOnExecutionContext(ctx);
  expect(response.status).toBe(200);
  return response.json();
}

describe('a session kept in the Durable Object, across Worker requests', () => {
  it('goes on with request 1\'s session in request 2 without an initialize, with the stored capabilities', async () => {
    const server = await poolServer();
    const first = await call(server, 'one', 'across');
    expect(first).toMatchObject({ text: 'one', capabilities: { tools: expect.anything() } });
    expect(first.events.map((e) => e.type)).toEqual(['session-started']);
    expect(first.backgroundTasks).toBeGreaterThan(0); // the store write went to ctx.waitUntil
    const second = await call(server, 'two', 'across');
    expect(second).toMatchObject({ text: 'two', events: [], capabilities: { tools: expect.anything() } });
    expect(await initializes(server)).toBe(1);
  });

  it('re-opens the session from the stored initialize after an eviction between requests: one re-initialization', async () => {
    const server = await poolServer();
    await call(server, 'before', 'evicted');
    await evictAll(server);
    const after = await call(server, 'after', 'evicted');
    expect(after.text).toBe('after');
    expect(after.events.filter((e) => e.type !== 'replayed').map((e) => e.type)).toEqual(['session-lost', 'session-started', 'session-reinitialized']);
    // The call is replayed once; the resumed client's GET stream too, when it met the loss before the new session was there.
    const replayed = after.events.filter((e) => e.type === 'replayed').map((e) => ('method' in e && e.method ? e.method : 'GET stream'));
    expect(replayed.filter((what) => what !== 'GET stream')).toEqual(['tools/call']);
    expect(replayed.length).toBeLessThanOrEqual(2);
    expect(await initializes(server)).toBe(2);
    const next = await call(server, 'next', 'evicted'); // request 3 goes on with the new session
    expect(next.events).toEqual([]);
    expect(await initializes(server)).toBe(2);
  });

  it('keeps one session per object name, and never stores credentials', async () => {
    const server = await poolServer();
    const ctx = createExecutionContext();
    const tasks: Promise<unknown>[] = [];
    const client = await connect(server.url, {
      sessions, sessionName: 'credentials', ctx: { waitUntil: (task) => (tasks.push(task), ctx.waitUntil(task)) },
      transportOptions: { requestInit: { headers: { authorization: 'Bearer very-secret-token' } } },
    });
    await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    await client.close();
    await waitOnExecutionContext(ctx);
    expect(tasks.length).toBeGreaterThan(0);
    const stored = await durableSessionStore(sessions, 'credentials').get(await sessionStoreKey(server.url, 'credentials'));
    expect(stored).toMatchObject({ sessionId: expect.any(String), revision: expect.any(String) });
    expect(JSON.stringify(stored)).not.toContain('very-secret-token');
    expect(await durableSessionStore(sessions, 'another name').get(await sessionStoreKey(server.url, 'credentials'))).toBeUndefined();
  });
});

describe('a binding that is missing or wrong says what to fix', () => {
  const unreachable = 'http://127.0.0.1:9/mcp'; // never reached: the binding fails first
  const refused = (code: string, message: RegExp) => expect.objectContaining({ code, message: expect.stringMatching(message) });

  it('a binding env does not have (missing, or read under a misspelt name)', async () => {
    const misspelt = (env as unknown as { MCP_SESSION: SessionStoreNamespace }).MCP_SESSION; // typed, but not bound
    await expect(connect(unreachable, { sessions: misspelt })).rejects.toEqual(refused('INVALID_BINDING', /^sessions is undefined: env has no binding of that name; .*"class_name": "McpSessionStore"/));
    expect(() => durableSessionStore(misspelt)).toThrow(/env has no binding of that name/);
  });

  it('a binding of another kind, or to another class', async () => {
    await expect(connect(unreachable, { sessions: {} as SessionStoreNamespace })).rejects.toEqual(refused('INVALID_BINDING', /not a Durable Object namespace binding/));
    await expect(connect(unreachable, { sessions: bindings.MCP_AGENT, sessionName: 'shared' })).rejects.toEqual(refused('INVALID_BINDING', /is not an McpSessionStore .*"getSession"/));
  });

  it('a class declared without SQLite: workerd\'s own words reach the caller', async () => {
    await expect(connect(unreachable, { sessions: bindings.LEGACY_SESSIONS, sessionName: 'shared' })).rejects.toThrow(/change `new_classes` to `new_sqlite_classes`/);
  });
});

describe('a connection that failed ("Network connection lost.")', () => {
  it('is read as maybe sent: a call that is not safe to repeat is given up at once', async () => {
    const server = await poolServer();
    const events: ResilienceEvent[] = [];
    const client = await connect(server.url, { onEvent: (e) => events.push(e) });
    await fetch(server.control, { method: 'DELETE' }).then((r) => r.body?.cancel()); // the server is gone: connections are refused
    try {
      const failed = await client.callTool({ name: 'record', arguments: { key: 'k' } }).catch((error: unknown) => error as Error & { code?: string });
      // Refused before anything was sent, yet workerd cannot say so: it is booked as broken after the send.
      expect(failed).toMatchObject({ code: 'OUTCOME_UNKNOWN', details: { reason: 'connection-broken' } });
      expect(failed.cause).toMatchObject({ message: 'Network connection lost.' }); // workerd's own error, kept as the cause
      expect(events.map((e) => e.type)).toEqual(['session-started', 'gave-up']);
    } finally {
      await client.close();
    }
  });
});

describe('the request time budget', () => {
  it('bounds the engine\'s own requests by what is left of it', async () => {
    let now = 1_000;
    const deadline = budgetDeadline(now, 5_000, () => now);
    now = 7_000; // the budget is spent: the work starts with an aborted signal, whatever its own limit
    await expect(deadline(20_000, async (signal) => { await new Promise((r) => setTimeout(r, 1)); return signal.aborted; })).resolves.toBe(true);
  });

  it('spent, ends connect()\'s re-initialization at once: the call fails typed instead of outliving the request', async () => {
    const server = await poolServer();
    const sessionStore = new MemorySessionStore();
    const first = await connect(server.url, { sessionStore, sessionName: 'budget' });
    await first.callTool({ name: 'echo', arguments: { text: 'a' } });
    await first.close();
    await evictAll(server);
    const late = await connect(server.url, { sessionStore, sessionName: 'budget', budgetMs: 0 });
    try {
      // With budget left, the same call is re-initialized and replayed (the Durable Object tests above).
      await expect(late.callTool({ name: 'echo', arguments: { text: 'b' } })).rejects.toMatchObject({ code: 'REINITIALIZE_FAILED' });
    } finally {
      await late.close();
    }
  });
});

describe('the Workers runtime as data, and the engine as an SDK 2.x Middleware', () => {
  it('declares its facts for one request under the same keys as every adapter: waitUntil, the budget', async () => {
    const tasks: Promise<unknown>[] = [];
    const runtime = workersRuntime({ ctx: { waitUntil: (task) => void tasks.push(task) }, budgetMs: 0 });
    expect(Object.keys(runtime).sort()).toEqual(Object.keys(DEFAULT_RUNTIME).sort());
    runtime.background(Promise.resolve());
    expect(tasks).toHaveLength(1);
    await expect(runtime.deadline(60_000, (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)))))
      .rejects.toMatchObject({ name: 'TimeoutError' }); // no budget left
  });

  it('recovers an eviction inside workerd, every request going through the next fetch, the session kept in the Durable Object', async () => {
    const server = await poolServer();
    const ctx = createExecutionContext();
    const sent: string[] = [];
    const next = (url: string | URL, init?: RequestInit) => (sent.push(init?.method ?? 'GET'), fetch(url, init));
    const events: ResilienceEvent[] = [];
    const fetchVia = resilienceMiddleware({ ctx, sessions, sessionName: 'middleware', onEvent: (e) => events.push(e) })(next);
    const client = new Client({ name: 'workers-middleware', version: '0' }, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: fetchVia }));
    await client.callTool({ name: 'echo', arguments: { text: 'before' } });
    await evictAll(server);
    await expect(client.callTool({ name: 'echo', arguments: { text: 'after' } })).resolves.toMatchObject({ content: [{ text: 'after' }] });
    await client.close();
    await waitOnExecutionContext(ctx);
    expect(events.filter((e) => e.type === 'session-reinitialized')).toHaveLength(1);
    expect(sent.filter((method) => method === 'POST').length).toBeGreaterThanOrEqual(5);
    expect(await durableSessionStore(sessions, 'middleware').get(await sessionStoreKey(server.url, 'middleware'))).toMatchObject({ sessionId: expect.any(String) });
  });
});
