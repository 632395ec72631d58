// Runs inside workerd: an agent Durable Object holds one SDK client (durableClient) for all of
// its requests, each a real Worker request (SELF.fetch) handed to the object, against mcp-chaos.
import { abortAllDurableObjects, env, runDurableObjectAlarm, runInDurableObject, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { durableClient, sessionStoreKey } from './index.ts';
import { SESSION_KEY_PREFIX } from './storage-session-store.ts';
import type { AgentAnswer, McpAgent } from './test-support/agent.ts';
import { evictAll, initializes, poolServer, wireLog, type PoolServer } from './test-support/chaos-pool.ts';

const agents = (env as unknown as { MCP_AGENT: DurableObjectNamespace<McpAgent> }).MCP_AGENT;

async function ask(server: PoolServer, name: string, text: string): Promise<AgentAnswer> {
  const response = await SELF.fetch(`http://worker/agent?${new URLSearchParams({ url: server.url, name, text })}`);
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}
const storedKeys = (name: string) =>
  runInDurableObject(agents.get(agents.idFromName(name)), async (_, state) => [...(await state.storage.list({ prefix: SESSION_KEY_PREFIX })).keys()]);

describe('what workerd allows', () => {
  it('refuses a client kept in a stateless Worker\'s global for a second request: the reason for the Durable Object', async () => {
    const server = await poolServer();
    const global = (text: string) => SELF.fetch(`http://worker/global?${new URLSearchParams({ url: server.url, text })}`).then((r) => r.json());
    await expect(global('first')).resolves.toEqual({ text: 'first' });
    await expect(global('second')).resolves.toEqual({ error: expect.stringContaining('Cannot perform I/O on behalf of a different request') });
  });

  it('lets an object use its client in its next requests, never another object: the holder is per object', async () => {
    const server = await poolServer();
    const [first, second] = ['shared-1', 'shared-2'].map((name) => agents.get(agents.idFromName(name)));
    await expect(first!.echoOnShared(server.url, 'a')).resolves.toEqual({ text: 'a' });
    await expect(first!.echoOnShared(server.url, 'b')).resolves.toEqual({ text: 'b' });
    await expect(second!.echoOnShared(server.url, 'c')).resolves.toEqual({ error: expect.stringContaining('Cannot perform I/O on behalf of a different Durable Object') });
  });
});

describe('a client held by a Durable Object for all of its requests', () => {
  it('serves request after request, and concurrent ones, on one client and one session', async () => {
    const server = await poolServer();
    const first = await ask(server, 'many', 'one');
    expect(first).toMatchObject({ text: 'one', events: ['session-started'], clients: 1 });
    const more = await Promise.all(['two', 'three', 'four', 'five'].map((text) => ask(server, 'many', text)));
    expect(more.map((a) => a.text)).toEqual(['two', 'three', 'four', 'five']);
    for (const answer of more) expect(answer).toMatchObject({ events: ['session-started'], clients: 1, instance: first.instance });
    expect(await initializes(server)).toBe(1);
  });

  it('recovers an eviction between two requests with exactly one re-initialization, on the same client', async () => {
    const server = await poolServer();
    const before = await ask(server, 'evicted', 'before');
    await evictAll(server);
    const after = await ask(server, 'evicted', 'after');
    expect(after).toMatchObject({ text: 'after', clients: 1, instance: before.instance });
    const next = await ask(server, 'evicted', 'next');
    expect(next.text).toBe('next');
    expect(next.events.filter((e) => e === 'session-reinitialized')).toHaveLength(1);
    const log = await wireLog(server);
    expect(log.filter((e) => e.rpcMethod === 'initialize')).toHaveLength(2);
    expect(log.filter((e) => e.rpcMethod === 'tools/call' && e.status === 200)).toHaveLength(3);
  });

  it('goes on with the stored session in the object\'s next instance, without an initialize', async () => {
    const server = await poolServer();
    const before = await ask(server, 'restarted', 'before');
    expect(await storedKeys('restarted')).toEqual([`${SESSION_KEY_PREFIX}${await sessionStoreKey(server.url, 'durable-object')}`]);
    await abortAllDurableObjects(); // the runtime lets the instance go; its storage stays
    const after = await ask(server, 'restarted', 'after');
    expect(after).toMatchObject({ text: 'after', events: [], clients: 1 });
    expect(after.instance).not.toBe(before.instance);
    expect(await initializes(server)).toBe(1);
  });
});

describe('ending the held session', () => {
  it('when the object is told to: a DELETE on the wire, the session gone from the server and the storage', async () => {
    const server = await poolServer();
    await ask(server, 'told', 'one');
    await agents.get(agents.idFromName('told')).end();
    expect((await wireLog(server)).filter((e) => e.httpMethod === 'DELETE')).toEqual([expect.objectContaining({ status: 200 })]);
    expect(((await (await fetch(`${server.control}/state`)).json()) as { sessions: unknown[] }).sessions).toEqual([]);
    expect(await storedKeys('told')).toEqual([]);
    expect(await ask(server, 'told', 'again')).toMatchObject({ text: 'again' }); // a new session, opened on demand
    expect(await initializes(server)).toBe(2);
  });

  it('when it is going away (its alarm), even from an instance that never opened the client', async () => {
    const server = await poolServer();
    await ask(server, 'leaving', 'one');
    await abortAllDurableObjects();
    const stub = agents.get(agents.idFromName('leaving'));
    await runInDurableObject(stub, (_, state) => state.storage.setAlarm(Date.now() + 60_000));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const log = await wireLog(server);
    expect(log.filter((e) => e.httpMethod === 'DELETE')).toEqual([expect.objectContaining({ status: 200 })]);
    expect(log.filter((e) => e.rpcMethod === 'initialize')).toHaveLength(1); // ended, not re-opened to be ended
    expect(await storedKeys('leaving')).toEqual([]);
  });

  it('is refused outside a Durable Object, saying what to do instead', () => {
    expect(() => durableClient({} as DurableObjectState, 'http://127.0.0.1:1/mcp'))
      .toThrow(expect.objectContaining({ code: 'INVALID_BINDING', message: expect.stringMatching(/call connect\(\) in each request/) }));
  });
});
