import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isReplaySafe, REPLAY_SAFE_METHODS } from './replay-safety.ts';
import { KNOWN_REVISIONS } from './revisions.ts';
import { followTask, nextTaskStep, taskMode, type TaskFacts, type TaskStatus } from './tasks.ts';

const RUNS = { numRuns: 500 };
const statusArb = fc.constantFrom<TaskStatus>('working', 'input_required', 'completed', 'failed', 'cancelled');
const msArb = fc.oneof(fc.nat({ max: 10_000 }), fc.nat({ max: 10_000_000 }));
const taskArb: fc.Arbitrary<TaskFacts> = fc.record({
  taskId: fc.constant('t1'), status: statusArb, pollIntervalMs: msArb, ttlMs: fc.oneof(msArb, fc.constant(null)),
}, { requiredKeys: ['taskId', 'status'] });
const policyArb = fc.record({ defaultIntervalMs: msArb, minIntervalMs: fc.nat({ max: 1_000 }), maxWaitMs: msArb });

describe('nextTaskStep: polling is honest and bounded', () => {
  it('never polls sooner than the server asked (or the minimum), unless a deadline comes first: then at that deadline', () => {
    fc.assert(fc.property(taskArb, policyArb, msArb, msArb, msArb, (task, policy, startedAtMs, createdAtMs, later) => {
      const nowMs = Math.max(startedAtMs, createdAtMs) + later;
      const step = nextTaskStep({ task, policy, nowMs, startedAtMs, createdAtMs });
      if (step.type !== 'poll') return;
      const pollAt = nowMs + step.delayMs;
      const atADeadline = pollAt === startedAtMs + policy.maxWaitMs || (task.ttlMs != null && pollAt === createdAtMs + task.ttlMs);
      if (atADeadline) return;
      expect(step.delayMs).toBeGreaterThanOrEqual(task.pollIntervalMs ?? policy.defaultIntervalMs);
      expect(step.delayMs).toBeGreaterThanOrEqual(policy.minIntervalMs);
    }), RUNS);
  });

  it('never waits past the caller\'s cap or the task\'s TTL, and never waits a negative time', () => {
    fc.assert(fc.property(taskArb, policyArb, msArb, msArb, msArb, (task, policy, startedAtMs, createdAtMs, later) => {
      const nowMs = Math.max(startedAtMs, createdAtMs) + later;
      const step = nextTaskStep({ task, policy, nowMs, startedAtMs, createdAtMs });
      if (step.type !== 'poll') return;
      expect(step.delayMs).toBeGreaterThan(0);
      expect(nowMs + step.delayMs).toBeLessThanOrEqual(startedAtMs + policy.maxWaitMs);
      if (task.ttlMs != null) expect(nowMs + step.delayMs).toBeLessThanOrEqual(createdAtMs + task.ttlMs);
    }), RUNS);
  });

  it('ends every polling loop: following the steps, a running task is given up within maxWaitMs', () => {
    // A floor of 10 ms keeps each run under 6,000 steps; a floor of 0 is the unit test's (1 ms).
    const boundedPolicyArb = fc.record({ defaultIntervalMs: msArb, minIntervalMs: fc.integer({ min: 10, max: 1_000 }), maxWaitMs: fc.nat({ max: 60_000 }) });
    fc.assert(fc.property(taskArb, boundedPolicyArb, msArb, (task, policy, startedAtMs) => {
      const working = { ...task, status: 'working' as const };
      // Each wait is the floor at least, or ends at the deadline: the loop is finite, even for a pollInterval of 0.
      const limit = Math.floor(policy.maxWaitMs / policy.minIntervalMs) + 1;
      let nowMs = startedAtMs;
      let polls = 0;
      let step = nextTaskStep({ task: working, policy, nowMs, startedAtMs, createdAtMs: startedAtMs });
      while (step.type === 'poll' && polls <= limit) {
        nowMs += step.delayMs;
        polls += 1;
        step = nextTaskStep({ task: working, policy, nowMs, startedAtMs, createdAtMs: startedAtMs });
      }
      expect(polls).toBeLessThanOrEqual(limit);
      expect(step).toMatchObject({ type: 'give-up', error: { code: 'TASK_UNFINISHED' } });
      expect(nowMs).toBeLessThanOrEqual(startedAtMs + policy.maxWaitMs);
    }), { numRuns: 100 });
  });

  it('only a working task is polled; an ended or blocked one is fetched; cancelled is TASK_CANCELLED', () => {
    fc.assert(fc.property(taskArb, policyArb, msArb, (task, policy, nowMs) => {
      const step = nextTaskStep({ task, policy, nowMs, startedAtMs: nowMs, createdAtMs: nowMs });
      if (task.status === 'cancelled') expect(step).toMatchObject({ type: 'give-up', error: { code: 'TASK_CANCELLED' } });
      else if (task.status !== 'working') expect(step).toEqual({ type: 'fetch-result' });
      else expect(step.type === 'poll' || (step.type === 'give-up' && step.error.code === 'TASK_UNFINISHED')).toBe(true);
    }), RUNS);
  });
});

describe('a task creation is never sent again blindly', () => {
  it('whatever its method (even one safe to repeat) and annotations, only a vouched tool or consent makes it safe under the default policy', () => {
    const methodArb = fc.oneof(fc.constantFrom('tools/call', ...REPLAY_SAFE_METHODS), fc.string());
    const hintsArb = fc.record({ readOnlyHint: fc.boolean(), idempotentHint: fc.boolean() }, { requiredKeys: [] });
    fc.assert(fc.property(methodArb, fc.string(), hintsArb, fc.boolean(), (method, toolName, annotations, consent) => {
      const creation = { method, toolName, annotations, task: true, ...(consent ? { consent } : {}) };
      expect(isReplaySafe(creation)).toBe(consent);
      expect(isReplaySafe(creation, 'safe', { idempotentTools: [toolName] })).toBe(consent || method === 'tools/call');
      expect(isReplaySafe(creation, 'never', { idempotentTools: [toolName] })).toBe(false);
    }), RUNS);
  });
});

describe('tasks are gated by revision', () => {
  it('a tool call goes as a task only on a revision with tasks in its core', () => {
    const revisionArb = fc.oneof(fc.constantFrom(...KNOWN_REVISIONS), fc.string(), fc.constant(undefined));
    fc.assert(fc.property(revisionArb, fc.constantFrom('optional', 'required', 'forbidden', undefined, 7), (revision, taskSupport) => {
      const capabilities = { tasks: { requests: { tools: { call: {} } } } };
      const mode = taskMode({ ...(revision === undefined ? {} : { revision }), capabilities, taskSupport });
      const expected = revision === '2025-11-25' && (taskSupport === 'optional' || taskSupport === 'required');
      if (revision === undefined || KNOWN_REVISIONS.includes(revision)) expect(mode === 'task').toBe(expected);
      if (mode === 'task') expect(taskSupport === 'optional' || taskSupport === 'required').toBe(true);
    }), RUNS);
  });

  it('a task is never declared lost without a session loss, nor on a revision without sessions', () => {
    fc.assert(fc.property(fc.constantFrom(...KNOWN_REVISIONS), fc.nat(5), fc.nat(5), fc.boolean(), fc.option(fc.constantFrom('server-restarted', 'unknown', 'idle-expired') as fc.Arbitrary<'unknown'>, { nil: undefined }),
      (revision, knownOn, answeredOn, unknown, loss) => {
        const step = followTask({ revision, knownOn, answeredOn, unknown, ...(loss === undefined ? {} : { loss }) });
        if (step.type === 'lost') {
          expect(loss).toBeDefined();
          expect(unknown && knownOn !== answeredOn).toBe(true);
          expect(['2025-03-26', '2025-06-18', '2025-11-25']).toContain(revision);
        }
        if (step.type === 'survived') expect(unknown).toBe(false);
      }), RUNS);
  });
});
