import { manualClock, startChaosServer, type ChaosServer, type ChaosServerOptions } from '@mcp-resilience/chaos';
import { normalizeTrace, type ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/experimental/tasks';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { callLongTool } from './call-long-tool.ts';
import { createResilientFetch, type ResilientFetchOptions } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';
import { watchedFetch } from './test-support/watched-fetch.ts';
import { NO_GET_STREAM } from './test-support/no-get-stream.ts';

let chaos: ChaosServer | undefined;
let client: Client | undefined;
afterEach(() => stopAll([client], [chaos]).then(() => (chaos = client = undefined)));

async function setup(server: ChaosServerOptions = {}, options: ResilientFetchOptions = {}) {
  chaos = await startChaosServer(server);
  const events: ResilienceEvent[] = [];
  client = new Client({ name: 'tasks', version: '0' });
  client.onerror = () => {};
  const fetch = createResilientFetch({ onEvent: (e) => events.push(e), backoff: { initialMs: 10, maxMs: 50 }, ...options });
  await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url), { fetch }));
  return events;
}
const job = (key: string, ms: number, pollMs = 100) => ({ name: 'job', arguments: { key, ms, pollMs } });
const posts = (method: string) => chaos!.state().log.filter((e) => e.httpMethod === 'POST' && e.rpcMethod === method);
const types = (events: ResilienceEvent[]) => normalizeTrace(events).map((e) => e.type).filter((type) => type !== 'session-started');
/** An engine clock that moves only by `skewMs` (the test's): a busy machine's pauses never count as idle time. */
const skewClock = (skew: () => number) => () => 1_000_000 + skew();

describe('the engine and tasks', () => {
  it('a task-augmented call is a creation: its stream broken, it is not sent again (OUTCOME_UNKNOWN), and ran once', async () => {
    const wire = watchedFetch();
    const events = await setup({ faults: [{ kind: 'drop-stream', afterEvents: 0, eventIds: false, rpcMethod: 'tools/call' }] }, { fetch: wire.fetch });
    const creating = client!.request({ method: 'tools/call', params: job('created', 50) }, CreateTaskResultSchema, { task: { ttl: 10_000 } });
    await expect(creating).rejects.toMatchObject({ code: -32090, data: { code: 'OUTCOME_UNKNOWN' } });
    expect(types(events)).toEqual(['gave-up']);
    expect(posts('tools/call')).toHaveLength(1);
    await wire.quiet(); // nothing the engine could still send for it
    expect(wire.sent.filter((method) => method === 'tools/call')).toHaveLength(1);
    expect(chaos!.state().ledger).toEqual({ created: 1 });
  });

  it('a creation the application vouches for (tools.idempotentTools) is re-issued like any call safe to repeat', async () => {
    const events = await setup({ faults: [{ kind: 'drop-stream', afterEvents: 0, eventIds: false, rpcMethod: 'tools/call' }] }, { tools: { idempotentTools: ['job'] } });
    await expect(client!.request({ method: 'tools/call', params: job('vouched', 50) }, CreateTaskResultSchema, { task: {} })).resolves.toMatchObject({ task: { status: 'working' } });
    expect(types(events)).toEqual(['reissued']);
  });

  it('tasks/get is read-only: its broken stream is re-issued, and the call goes on', async () => {
    const events = await setup({ faults: [{ kind: 'drop-stream', afterEvents: 0, eventIds: false, rpcMethod: 'tasks/get', count: 1 }] });
    await expect(callLongTool(client!, job('polled', 200))).resolves.toMatchObject({ content: [{ text: 'executions of polled: 1' }] });
    expect(types(events)).toEqual(['reissued']);
  });

  it('tasks/cancel is idempotent: sent again on the new session after a loss, it cancels the task', async () => {
    // The server's clock: the job runs until it is cancelled, however long the loss and the re-initialization take.
    const events = await setup({ taskBinding: 'server', clock: manualClock() });
    const { task } = await client!.request({ method: 'tools/call', params: job('cancelled', 2_000) }, CreateTaskResultSchema, { task: {} });
    await chaos!.applyFaults([{ kind: 'evict', session: 'all' }]);
    await expect(client!.experimental.tasks.cancelTask(task.taskId)).resolves.toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    expect(types(events)).toEqual(['session-lost', 'session-reinitialized', 'replayed', 'task-survived']);
  });

  it('a session with a task running on it is in use: never replaced for idleness (its DELETE would end a session-bound task)', async () => {
    // The engine's clock moves 300 ms with each status of the task (idle past the 200 ms budget
    // between polls), the server's finishes the job after the third: yet the task keeps its session.
    const clock = manualClock();
    let skewMs = 0;
    const events = await setup({ faults: [NO_GET_STREAM], clock }, { idleBudgetMs: 200, now: skewClock(() => skewMs) });
    let statuses = 0;
    const onTask = () => ((skewMs += 300), ++statuses === 3 && void clock.advance(900));
    await expect(callLongTool(client!, job('kept', 900, 50), { onTask })).resolves.toMatchObject({ content: [{ text: 'executions of kept: 1' }] });
    expect(statuses).toBeGreaterThanOrEqual(4); // created, polled twice working, then completed
    expect(types(events)).toEqual([]);
    expect(chaos!.state().log.filter((e) => e.httpMethod === 'DELETE')).toEqual([]);
    // Once it ended, the session may be idle again: the next call after the budget opens a new one.
    skewMs += 250;
    await client!.callTool({ name: 'echo', arguments: { text: 'later' } });
    expect(types(events)).toEqual(['session-reinitialized']);
  });

  it('a finished task whose result is not fetched yet still holds its session: tasks/result, late, finds it', async () => {
    let skewMs = 0;
    const events = await setup({ faults: [NO_GET_STREAM] }, { idleBudgetMs: 200, now: skewClock(() => skewMs) });
    const { task } = await client!.request({ method: 'tools/call', params: job('late', 0) }, CreateTaskResultSchema, { task: {} });
    // A job of 0 ms: completed at the first poll or so. The 10 s are a hang guard (vitest's default, 1 s, was a verdict on the machine's speed).
    const status = () => client!.experimental.tasks.getTask(task.taskId).then((t) => t.status);
    await expect.poll(status, { interval: 20, timeout: 10_000, message: 'hung: the task did not complete within 10 s' }).toBe('completed');
    skewMs += 300; // past the idle budget, before the result is asked for
    await expect(client!.request({ method: 'tasks/result', params: { taskId: task.taskId } }, CallToolResultSchema))
      .resolves.toMatchObject({ content: [{ text: 'executions of late: 1' }] });
    expect(types(events)).toEqual([]);
    // Fetched, the result no longer holds the session: idle past the budget, the next call opens a new one.
    skewMs += 250;
    await client!.callTool({ name: 'echo', arguments: { text: 'later' } });
    expect(types(events)).toEqual(['session-reinitialized']);
  });
});
