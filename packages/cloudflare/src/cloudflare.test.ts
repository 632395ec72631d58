// Runs inside workerd: every request below is a real Worker request (SELF.fetch) or the test's
// own, against real mcp-chaos servers on 127.0.0.1 started by the Node side (globalSetup).
import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { budgetDeadline, connect, durableSessionStore, type ResilienceEvent } from './index.ts';
import type { McpSessionStore } from './session-store-object.ts';
import './test-support/provided-context.ts';

const sessions = (env as unknown as { MCP_SESSIONS: DurableObjectNamespace<McpSessionStore> }).MCP_SESSIONS;
const started: string[] = [];
afterAll(async () => {
  for (const control of started) await fetch(control, { method: 'DELETE' }).then((r) => r.body?.cancel());
});

/** A fresh server of the chaos pool. */
async function poolServer(options: object = {}): Promise<{ url: string; control: string }> {
  const response = await fetch(`${inject('chaosControl')}/servers`, { method: 'POST', body: JSON.stringify(options) });
  const server = await response.json() as { url: string; control: string };
  started.push(server.control);
  return server;
}
const posts = async (control: string, method: string) =>
  ((await (await fetch(`${control}/state`)).json()) as { log: { rpcMethod?: string }[] }).log.filter((e) => e.rpcMethod === method).length;

interface Answer {
  readonly text: string;
  readonly events: ResilienceEvent[];
  readonly capabilities: { tools?: unknown } | null;
  readonly backgroundTasks: number;
}
async function call(server: { url: string }, text: string, name: string): Promise<Answer> {
  const response = await SELF.fetch(`http://worker/call?${new URLSearchParams({ url: server.url, text, name })}`);
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
    expect(await posts(server.control, 'initialize')).toBe(1);
  });

  it('re-opens the session from the stored initialize after an eviction between requests: one re-initialization', async () => {
    const server = await poolServer();
    await call(server, 'before', 'evicted');
    await fetch(`${server.control}/faults`, { method: 'POST', body: JSON.stringify({ kind: 'evict', session: 'all' }) });
    const after = await call(server, 'after', 'evicted');
    expect(after.text).toBe('after');
    expect(after.events.map((e) => e.type)).toEqual(['session-lost', 'session-started', 'session-reinitialized', 'replayed']);
    expect(await posts(server.control, 'initialize')).toBe(2);
    const next = await call(server, 'next', 'evicted'); // request 3 goes on with the new session
    expect(next.events).toEqual([]);
    expect(await posts(server.control, 'initialize')).toBe(2);
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
    const stored = await durableSessionStore(sessions, 'credentials').get(new URL(server.url).href);
    expect(stored).toMatchObject({ sessionId: expect.any(String), revision: expect.any(String) });
    expect(JSON.stringify(stored)).not.toContain('very-secret-token');
    expect(await durableSessionStore(sessions, 'another name').get(new URL(server.url).href)).toBeUndefined();
  });
});

describe('tools with an output schema, validated inside workerd', () => {
  it('validates structured content with CfWorkerJsonSchemaValidator by default', async () => {
    const client = await connect(inject('schemaUrl'));
    try {
      await client.listTools(); // the SDK learns the output schemas here
      await expect(client.callTool({ name: 'weather' })).resolves.toMatchObject({ structuredContent: { celsius: 21 } });
      await expect(client.callTool({ name: 'broken-weather' })).rejects.toThrow(/output schema/i);
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
});
