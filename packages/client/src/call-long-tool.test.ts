import { manualClock, startChaosServer, type ChaosServer, type ChaosServerOptions } from '@mcp-resilience/chaos';
import { normalizeTrace, type ResilienceEvent } from '@mcp-resilience/core';
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { callLongTool } from './call-long-tool.ts';
import { IDEMPOTENCY_KEY } from './options.ts';
import { createResilientFetch, type ResilientFetchOptions } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';
import { watchedFetch } from './test-support/watched-fetch.ts';
import { NO_GET_STREAM } from './test-support/no-get-stream.ts';

let chaos: ChaosServer | undefined;
const clients: { close(): Promise<unknown> }[] = [];
afterEach(() => stopAll(clients.splice(0), [chaos]).then(() => (chaos = undefined)));

/** A chaos server and an SDK client (1.x or 2.x) through the engine; the events it emitted. */
async function setup(server: ChaosServerOptions = {}, line: 1 | 2 = 1, options: ResilientFetchOptions = {}) {
  // No standalone stream: the SDK's reconnect after an eviction could meet the loss before the task's first poll does.
  chaos = await startChaosServer({ faults: [NO_GET_STREAM], ...server });
  const events: ResilienceEvent[] = [];
  const fetch = createResilientFetch({ onEvent: (e) => events.push(e), backoff: { initialMs: 10, maxMs: 50 }, ...options });
  const client = line === 1 ? new Client({ name: 'long', version: '0' }) : new Client2({ name: 'long', version: '0' });
  client.onerror = () => {};
  clients.push(client);
  await client.connect(line === 1 ? new StreamableHTTPClientTransport(new URL(chaos.url), { fetch }) : new Transport2(new URL(chaos.url), { fetch }));
  return { client, events };
}

const job = (key: string, ms = 400) => ({ name: 'job', arguments: { key, ms, steps: 2, pollMs: 100 } });
const evictOnCreation = () => ({ onTask: once(() => void chaos!.applyFaults([{ kind: 'evict', session: 'all' }])) });
const posts = (method: string) => chaos!.state().log.filter((e) => e.httpMethod === 'POST' && e.rpcMethod === method).length;
const trace = (events: ResilienceEvent[]) => normalizeTrace(events).filter((e) => e.type !== 'session-started');

function once(run: () => void): () => void {
  let done = false;
  return () => (done ? undefined : ((done = true), run()));
}

describe('callLongTool: a slow tool on the async path', () => {
  for (const line of [1, 2] as const) {
    it(`SDK ${line}.x: a task outlives its session's eviction where the server binds it to itself: polled on the new session, its result delivered, run once`, async () => {
      const { client, events } = await setup({ taskBinding: 'server' }, line);
      const statuses: string[] = [];
      const evict = evictOnCreation().onTask;
      const result = await callLongTool(client, job('survives'), { onTask: (task) => (statuses.push(task.status), evict()) });
      expect(result.content).toEqual([{ type: 'text', text: 'executions of survives: 1' }]);
      expect(statuses[0]).toBe('working');
      expect(statuses.at(-1)).toBe('completed');
      expect(trace(events)).toEqual([
        expect.objectContaining({ type: 'session-lost', session: 1, method: 'tasks/get' }),
        { type: 'session-reinitialized', from: 1, to: 2, reason: 'lost' },
        { type: 'replayed', session: 2, method: 'tasks/get' },
        { type: 'task-survived', task: 1, from: 1, session: 2 },
      ]);
      expect(chaos!.state().ledger).toEqual({ survives: 1 });
      expect(posts('tools/call')).toBe(1);
      expect(posts('tasks/result')).toBe(1);
    });

    it(`SDK ${line}.x: a task bound to its session is lost with it: TASK_LOST with its id and cause, never created again`, async () => {
      const wire = watchedFetch();
      const { client, events } = await setup({}, line, { fetch: wire.fetch });
      const error = await callLongTool(client, job('bound'), evictOnCreation()).catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'ResilienceError', code: 'TASK_LOST', details: { taskId: expect.any(String), mayStillRun: true, recreatable: false } });
      expect(trace(events).slice(-2)).toEqual([
        { type: 'task-lost', task: 1, session: 1, method: 'tasks/get', cause: expect.any(String), mayStillRun: true, recreatable: false },
        { type: 'gave-up', method: 'tasks/get', code: 'TASK_LOST' },
      ]);
      await wire.quiet(); // the lost task's work runs on out of sight, and nothing more is sent for it: it ran once
      expect(chaos!.state().ledger).toEqual({ bound: 1 });
      expect(posts('tools/call')).toBe(1);
    });
  }

  it('a plain call for a tool without task support, and on a server whose revision has no tasks', async () => {
    const { client, events } = await setup();
    await expect(callLongTool(client, { name: 'echo', arguments: { text: 'plain' } })).resolves.toMatchObject({ content: [{ text: 'plain' }] });
    expect(posts('tasks/get')).toBe(0);
    await expect(callLongTool(client, job('told', 50), { taskSupport: 'forbidden' })).resolves.toMatchObject({ content: [{ text: 'executions of told: 1' }] });
    expect(posts('tasks/get')).toBe(0);
    expect(trace(events)).toEqual([]);
  });

  it('a plain call on 2026-07-28, where tasks are an extension this client does not declare', async () => {
    chaos = await startChaosServer({ mode: 'modern' });
    const client = new Client2({ name: 'modern', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    clients.push(client);
    await client.connect(new Transport2(new URL(chaos.url), { fetch: createResilientFetch() }));
    await expect(callLongTool(client, job('modern', 50), { taskSupport: 'optional' })).resolves.toMatchObject({ content: [{ text: 'executions of modern: 1' }] });
  });

  it('the task is created anew, once, when the engine vouches for the tool (its creation was safe to repeat)', async () => {
    const { client, events } = await setup({}, 1, { tools: { idempotentTools: ['job'] } });
    await expect(callLongTool(client, job('again'), evictOnCreation())).resolves.toMatchObject({ content: [{ text: 'executions of again: 2' }] });
    expect(events.find((e) => e.type === 'task-lost')).toMatchObject({ recreatable: true });
    expect(posts('tools/call')).toBe(2);
  });

  it('a task the server discards with no session lost: TASK_LOST (cause gone); with consent (an idempotency key), created anew once', async () => {
    const { client, events } = await setup({ taskBinding: 'server' });
    const forget = () => once(() => void chaos!.applyFaults([{ kind: 'forget-tasks' }]));
    const error = await callLongTool(client, job('gone'), { onTask: forget() }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TASK_LOST', details: { taskId: expect.any(String), cause: 'gone', mayStillRun: true, recreatable: false } });
    const withKey = { ...job('keyed'), _meta: { [IDEMPOTENCY_KEY]: 'k-1' } };
    // The first run was counted when it started: the second, by consent, is the one that answers.
    await expect(callLongTool(client, withKey, { onTask: forget() })).resolves.toMatchObject({ content: [{ text: 'executions of keyed: 2' }] });
    expect(trace(events)).toEqual([]); // no session was lost: the engine had nothing to say
  });

  it('honours the wait cap: TASK_UNFINISHED with the task id, the task still running', async () => {
    // The server's clock: the job is still running at the cap, however slow the machine (it never moves).
    const { client } = await setup({ clock: manualClock() });
    const error = await callLongTool(client, job('capped', 1_000), { poll: { maxWaitMs: 250 } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TASK_UNFINISHED', details: { taskId: expect.any(String), status: 'working', reason: 'max-wait' } });
  });

  it('abort ends the wait at once with the abort reason, and cancels the task on the server', async () => {
    // The server's clock: the job is still running when the abort comes, however slow the machine (it never moves).
    const { client } = await setup({ clock: manualClock() });
    const controller = new AbortController();
    const calling = callLongTool(client, job('aborted', 2_000), { signal: controller.signal, onTask: once(() => controller.abort(new Error('user left'))) });
    await expect(calling).rejects.toThrow('user left');
    expect(posts('tasks/cancel')).toBe(1);
  });

  it('the SDK\'s own task API (1.x callToolStream) through the engine: a task outlives the eviction too', async () => {
    const { client, events } = await setup({ taskBinding: 'server' });
    await client.listTools();
    const messages: string[] = [];
    for await (const message of (client as Client).experimental.tasks.callToolStream(job('sdk-stream'), undefined, { task: { ttl: 30_000 } })) {
      messages.push(message.type);
      if (message.type === 'taskCreated') await chaos!.applyFaults([{ kind: 'evict', session: 'all' }]);
      if (message.type === 'result') expect(message.result.content).toEqual([{ type: 'text', text: 'executions of sdk-stream: 1' }]);
    }
    expect(messages[0]).toBe('taskCreated');
    expect(messages.at(-1)).toBe('result');
    expect(trace(events), JSON.stringify(events)).toContainEqual({ type: 'task-survived', task: 1, from: 1, session: 2 });
  });
});
