import { describe, expect, it } from 'vitest';
import { createsTask, followTask, isUnknownTask, nextTaskStep, readTask, taskLost, taskMode } from './tasks.ts';

const TOOLS_CALL = { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };

describe('readTask', () => {
  it('reads a CreateTaskResult and a Task, fields renamed to milliseconds', () => {
    const task = { taskId: 't1', status: 'working', pollInterval: 500, ttl: 60_000, createdAt: '2025-11-25T10:30:00Z' };
    expect(readTask({ task })).toEqual({ taskId: 't1', status: 'working', pollIntervalMs: 500, ttlMs: 60_000 });
    expect(readTask({ ...task, ttl: null, statusMessage: 'half way' })).toEqual({
      taskId: 't1', status: 'working', pollIntervalMs: 500, ttlMs: null, statusMessage: 'half way',
    });
  });

  it('refuses what is not a task, and leaves out figures that are not numbers >= 0', () => {
    for (const value of [null, 'x', [], {}, { taskId: '', status: 'working' }, { taskId: 't', status: 'done' }, { task: 3 }, { taskId: 7, status: 'working' }]) {
      expect(readTask(value)).toBeUndefined();
    }
    expect(readTask({ taskId: 't', status: 'completed', pollInterval: -1, ttl: 'forever' })).toEqual({ taskId: 't', status: 'completed' });
  });
});

describe('createsTask', () => {
  it('is a request with params.task, other than the tasks/* requests', () => {
    expect(createsTask('tools/call', { name: 'job', task: {} })).toBe(true);
    expect(createsTask('tools/call', { name: 'job' })).toBe(false);
    expect(createsTask('tools/call', { name: 'job', task: null })).toBe(false);
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) expect(createsTask(method, { taskId: 't', task: { ttl: 1 } })).toBe(false);
    expect(createsTask(undefined, { task: {} })).toBe(false);
  });
});

describe('taskMode (revision gating)', () => {
  it('goes as a task on 2025-11-25, with the capability, for a tool that supports it', () => {
    expect(taskMode({ revision: '2025-11-25', capabilities: TOOLS_CALL, taskSupport: 'optional' })).toBe('task');
    expect(taskMode({ revision: '2025-11-25', capabilities: TOOLS_CALL, taskSupport: 'required' })).toBe('task');
  });

  it('goes plain otherwise', () => {
    expect(taskMode({ revision: '2025-11-25', capabilities: TOOLS_CALL, taskSupport: 'forbidden' })).toBe('plain');
    expect(taskMode({ revision: '2025-11-25', capabilities: TOOLS_CALL })).toBe('plain');
    expect(taskMode({ revision: '2025-11-25', capabilities: { tasks: {} }, taskSupport: 'required' })).toBe('plain');
    expect(taskMode({ revision: '2025-06-18', capabilities: TOOLS_CALL, taskSupport: 'optional' })).toBe('plain');
    expect(taskMode({ revision: '2026-07-28', capabilities: TOOLS_CALL, taskSupport: 'optional' })).toBe('plain');
  });
});

describe('nextTaskStep', () => {
  const at = (status: string, extra: object = {}) => ({ taskId: 't1', status, ...extra }) as Parameters<typeof nextTaskStep>[0]['task'];
  const base = { nowMs: 10_000, startedAtMs: 0, createdAtMs: 0 };

  it('polls after the server\'s interval, or the default, never under the minimum', () => {
    expect(nextTaskStep({ ...base, task: at('working', { pollIntervalMs: 2_500 }) })).toEqual({ type: 'poll', delayMs: 2_500 });
    expect(nextTaskStep({ ...base, task: at('working') })).toEqual({ type: 'poll', delayMs: 1_000 });
    expect(nextTaskStep({ ...base, task: at('working', { pollIntervalMs: 0 }) })).toEqual({ type: 'poll', delayMs: 50 });
    const noFloor = { defaultIntervalMs: 0, minIntervalMs: 0, maxWaitMs: 60_000 };
    expect(nextTaskStep({ ...base, policy: noFloor, task: at('working', { pollIntervalMs: 0 }) })).toEqual({ type: 'poll', delayMs: 1 });
  });

  it('fetches the result once the task ended or needs input', () => {
    for (const status of ['completed', 'failed', 'input_required']) expect(nextTaskStep({ ...base, task: at(status) })).toEqual({ type: 'fetch-result' });
  });

  it('gives up on a task cancelled by someone else', () => {
    expect(nextTaskStep({ ...base, task: at('cancelled') })).toMatchObject({ type: 'give-up', error: { code: 'TASK_CANCELLED', details: { taskId: 't1' } } });
  });

  it('polls last at the TTL or the wait cap, then stops with TASK_UNFINISHED', () => {
    expect(nextTaskStep({ ...base, task: at('working', { pollIntervalMs: 5_000, ttlMs: 12_000 }) })).toEqual({ type: 'poll', delayMs: 2_000 });
    expect(nextTaskStep({ ...base, nowMs: 12_000, task: at('working', { ttlMs: 12_000 }) }))
      .toMatchObject({ type: 'give-up', error: { code: 'TASK_UNFINISHED', details: { taskId: 't1', status: 'working', reason: 'ttl' } } });
    const policy = { defaultIntervalMs: 1_000, minIntervalMs: 50, maxWaitMs: 10_500 };
    expect(nextTaskStep({ ...base, policy, task: at('working') })).toEqual({ type: 'poll', delayMs: 500 });
    expect(nextTaskStep({ ...base, nowMs: 10_500, policy, task: at('working', { ttlMs: null }) }))
      .toMatchObject({ error: { code: 'TASK_UNFINISHED', details: { reason: 'max-wait' } } });
  });
});

describe('followTask and taskLost', () => {
  it('tells a task that lives on a newer session from one the server forgot', () => {
    const input = { revision: '2025-11-25', knownOn: 1, answeredOn: 2, unknown: false };
    expect(followTask(input)).toEqual({ type: 'survived' });
    expect(followTask({ ...input, unknown: true, loss: 'evicted-while-busy' })).toEqual({ type: 'lost', cause: 'evicted-while-busy' });
    expect(followTask({ ...input, unknown: true })).toEqual({ type: 'same' }); // no loss known: the server's word, as it is
    expect(followTask({ ...input, answeredOn: 1, unknown: true, loss: 'unknown' })).toEqual({ type: 'same' });
    expect(followTask({ ...input, revision: '2026-07-28', unknown: true, loss: 'unknown' })).toEqual({ type: 'same' });
  });

  it('says whether a lost task may run on out of sight', () => {
    expect(taskLost({ taskId: 't1', cause: 'server-restarted', recreatable: false })).toEqual({
      code: 'TASK_LOST', message: 'The server no longer knows the task',
      details: { taskId: 't1', cause: 'server-restarted', mayStillRun: false, recreatable: false },
    });
    expect(taskLost({ taskId: 't1', cause: 'evicted-while-busy', recreatable: true }).details).toMatchObject({ mayStillRun: true, recreatable: true });
  });

  it('knows an unknown task by -32602', () => {
    expect(isUnknownTask({ code: -32602, message: 'Failed to retrieve task: Task not found' })).toBe(true);
    expect(isUnknownTask({ code: -32603, message: 'Internal error' })).toBe(false);
    expect(isUnknownTask(undefined)).toBe(false);
  });
});
