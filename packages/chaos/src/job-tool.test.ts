import { afterEach, describe, expect, it } from 'vitest';
import { manualClock, type ManualClock } from './chaos-clock.ts';
import { startChaosServer, type ChaosServer, type ChaosServerOptions } from './chaos-server.ts';
import { call, callTool, openSession, resultText, until, type RpcReply } from './test-support/raw-client.ts';

let chaos: ChaosServer | undefined;
/** The server's clock: a job's work takes its time on it, and only as the test moves it. */
let clock: ManualClock;
afterEach(async () => {
  await chaos?.stop();
  chaos = undefined;
});
const start = async (options: ChaosServerOptions = {}) => (chaos = await startChaosServer({ clock: (clock = manualClock()), ...options }));

const resultOf = (reply: RpcReply) => (reply.messages.find((m) => 'result' in m || 'error' in m) ?? {}) as { result?: Record<string, unknown>; error?: { code: number } };

/** Starts a `job` task on a session: its task id and what the server said of it. */
async function startJob(url: string, session: string, args: Record<string, unknown>): Promise<{ taskId: string; task: Record<string, unknown> }> {
  const created = resultOf(await call(url, session, 'tools/call', { name: 'job', arguments: args, task: { ttl: 30_000 } }));
  const task = created.result?.task as Record<string, unknown>;
  return { taskId: task.taskId as string, task };
}

/** Polls tasks/get until the task is no longer working (100 polls at most: its time has passed, only its last steps are left). */
async function settled(url: string, session: string, taskId: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i++) {
    const answer = resultOf(await call(url, session, 'tasks/get', { taskId }));
    if (answer.error || answer.result?.status !== 'working') return answer;
  }
  throw new Error('the task never settled');
}

describe('chaos server: job, a tool with the SDK\'s task support', () => {
  it('advertises the tasks capability and job\'s taskSupport, and runs job as a task: created at once, polled, its result fetched', async () => {
    const { url } = await start();
    const session = await openSession(url);
    const tools = resultOf(await call(url, session, 'tools/list')).result!.tools as { name: string; execution?: unknown }[];
    expect(tools.find((t) => t.name === 'job')?.execution).toEqual({ taskSupport: 'optional' });
    const { taskId, task } = await startJob(url, session, { key: 'k1', ms: 150, pollMs: 50 });
    expect(task).toMatchObject({ status: 'working', pollInterval: 50, ttl: 30_000 });
    await clock.advance(149);
    expect(resultOf(await call(url, session, 'tasks/get', { taskId })).result).toMatchObject({ status: 'working' });
    await clock.advance(1);
    expect(await settled(url, session, taskId)).toMatchObject({ result: { taskId, status: 'completed' } });
    expect(resultText(await call(url, session, 'tasks/result', { taskId }))).toBe('executions of k1: 1');
    expect(chaos!.state()).toMatchObject({ ledger: { k1: 1 }, taskBinding: 'session' });
  });

  it('runs job as a plain call too, counting each execution', async () => {
    const { url } = await start();
    const session = await openSession(url);
    for (const runs of [1, 2]) {
      const reply = callTool(url, session, 'job', { key: 'k2', ms: 20, pollMs: 20 });
      await until('the job at work (its timer pending)', () => clock.pending === 1); // the job is at work
      await clock.advance(20);
      expect(resultText(await reply)).toBe(`executions of k2: ${runs}`);
    }
  });

  it('bound to its session (the default): another session does not know the task, and an eviction does not stop its work', async () => {
    const { url } = await start();
    const first = await openSession(url);
    const { taskId } = await startJob(url, first, { key: 'k3', ms: 200, pollMs: 50 });
    await chaos!.applyFaults([{ kind: 'evict', session: 'all' }]);
    const second = await openSession(url);
    expect(resultOf(await call(url, second, 'tasks/get', { taskId })).error).toMatchObject({ code: -32602 });
    expect(clock.pending).toBe(1); // its work goes on, waiting for its time
    await clock.advance(200);
    expect(chaos!.state().ledger).toEqual({ k3: 1 });
  });

  it('bound to the server: the task outlives an eviction and is found from a new session', async () => {
    const { url } = await start({ taskBinding: 'server' });
    const first = await openSession(url);
    const { taskId } = await startJob(url, first, { key: 'k4', ms: 150, pollMs: 50 });
    await chaos!.applyFaults([{ kind: 'evict', session: 'all' }]);
    const second = await openSession(url);
    await clock.advance(150);
    expect(await settled(url, second, taskId)).toMatchObject({ result: { status: 'completed' } });
    expect(resultText(await call(url, second, 'tasks/result', { taskId }))).toBe('executions of k4: 1');
  });

  it('a restart forgets every task and stops its work, whatever the binding', async () => {
    const { url } = await start({ taskBinding: 'server' });
    const first = await openSession(url);
    const { taskId } = await startJob(url, first, { key: 'k5', ms: 200, pollMs: 50 });
    await chaos!.applyFaults([{ kind: 'restart' }]);
    expect(clock.pending).toBe(0); // its work stopped
    const second = await openSession(url);
    expect(resultOf(await call(url, second, 'tasks/get', { taskId })).error).toMatchObject({ code: -32602 });
  });

  it('forget-tasks discards every task, sessions staying', async () => {
    const { url } = await start({ taskBinding: 'server' });
    const session = await openSession(url);
    const { taskId } = await startJob(url, session, { key: 'k7', ms: 200, pollMs: 50 });
    await chaos!.applyFaults([{ kind: 'forget-tasks' }]);
    expect(resultOf(await call(url, session, 'tasks/get', { taskId })).error).toMatchObject({ code: -32602 });
    expect(resultText(await callTool(url, session, 'echo', { text: 'still here' }))).toBe('still here');
  });

  it('cancels a task (tasks/cancel), and refuses to cancel it twice (-32602, terminal)', async () => {
    const { url } = await start();
    const session = await openSession(url);
    const { taskId } = await startJob(url, session, { key: 'k6', ms: 500, pollMs: 50 });
    expect(resultOf(await call(url, session, 'tasks/cancel', { taskId })).result).toMatchObject({ taskId, status: 'cancelled' });
    expect(resultOf(await call(url, session, 'tasks/cancel', { taskId })).error).toMatchObject({ code: -32602 });
  });
});
