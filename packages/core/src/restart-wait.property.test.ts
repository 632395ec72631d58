import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { advance, createRetryPolicy, decide, FRESH_CALL, type Action, type CallState } from './decide.ts';
import { isResilienceError } from './errors.ts';
import { createRestartWait, DEFAULT_RESTART_WAIT } from './restart-wait.ts';
import { anyRevisionArb, nowMsArb, operationArb, policyArb, randomArb, restartWaitOverridesArb, saneRandomArb, sessionGoneArb } from './test-support/arbitraries.ts';
import type { Verdict } from './verdict.ts';

const RUNS = { numRuns: 100 };
const REFUSED: Verdict = { kind: 'not-processed', reason: 'connection-refused' };

/** A server that refuses every attempt: each attempt takes `spentMs[i]` of the clock, then the call waits what core says. */
const refusingRun = fc.record({
  policy: policyArb,
  operation: operationArb,
  revision: anyRevisionArb,
  startMs: nowMsArb,
  randoms: fc.array(randomArb, { minLength: 1, maxLength: 20 }),
  spentMs: fc.array(fc.oneof(fc.constant(0), fc.nat({ max: 3_000 })), { minLength: 1, maxLength: 20 }),
});

describe('decide: waiting for a server that refuses connections (a restart)', () => {
  it('never waits past the deadline, fixed at the first refusal; every delay is finite, >= 0 and capped at restartWait.maxMs', () => {
    fc.assert(fc.property(refusingRun, ({ policy, operation, revision, startMs, randoms, spentMs }) => {
      const deadline = startMs + policy.restartWait.maxWaitMs;
      let call: CallState = FRESH_CALL;
      let nowMs = startMs;
      for (let i = 0; i < 30; i++) {
        const action = decide({ verdict: REFUSED, call, operation, nowMs, random: randoms[i % randoms.length]!, policy, ...(revision ? { revision } : {}) });
        if (action.type === 'give-up') {
          // Only the deadline ends it, and only once it has come.
          expect(action.error).toMatchObject({ code: 'SERVER_UNREACHABLE', details: { attempts: i, maxWaitMs: policy.restartWait.maxWaitMs } });
          expect(nowMs).toBeGreaterThanOrEqual(deadline);
          return;
        }
        expect(action).toMatchObject({ type: 'wait-for-server', attempt: i + 1, untilMs: deadline });
        if (action.type !== 'wait-for-server') return;
        expect(Number.isFinite(action.delayMs) && action.delayMs >= 0, String(action.delayMs)).toBe(true);
        expect(action.delayMs).toBeLessThanOrEqual(policy.restartWait.maxMs);
        expect(nowMs + action.delayMs).toBeLessThanOrEqual(deadline);
        call = advance(call, action);
        nowMs += action.delayMs + spentMs[i % spentMs.length]!;
      }
    }), RUNS);
  });

  it('a wait that lands on the deadline gives one last attempt there, and the deadline always comes (shipped jitters)', () => {
    const wait = fc.record({ overrides: restartWaitOverridesArb, maxWaitMs: fc.nat({ max: 5_000 }) });
    fc.assert(fc.property(wait, nowMsArb, saneRandomArb, ({ overrides, maxWaitMs }, startMs, random) => {
      const policy = createRetryPolicy({ restartWait: { ...overrides, maxWaitMs, jitter: DEFAULT_RESTART_WAIT.jitter } });
      let call: CallState = FRESH_CALL;
      let nowMs = startMs;
      let last: Action | undefined;
      // With equal jitter each delay is at least 1 ms and half of initialMs (rounded down), or what is left: the deadline comes.
      const most = Math.ceil(policy.restartWait.maxWaitMs / Math.max(1, Math.floor(policy.restartWait.initialMs / 2))) + 2;
      for (let i = 0; i <= most && last?.type !== 'give-up'; i++) {
        last = decide({ verdict: REFUSED, call, operation: { method: 'tools/call', toolName: 'pay' }, nowMs, random, policy });
        if (last.type === 'wait-for-server') {
          call = advance(call, last);
          nowMs += last.delayMs;
        }
      }
      expect(last).toMatchObject({ type: 'give-up', error: { code: 'SERVER_UNREACHABLE' } });
      expect(nowMs).toBe(startMs + policy.restartWait.maxWaitMs);
    }), RUNS);
  });

  it('keeps its deadline through other failures of the same call (a session loss, a 429): one budget per call', () => {
    const others = fc.oneof(sessionGoneArb('not-processed'), fc.constant<Verdict>({ kind: 'rate-limited' }), fc.constant(REFUSED));
    fc.assert(fc.property(policyArb, nowMsArb, fc.array(others, { minLength: 1, maxLength: 12 }), saneRandomArb, (policy, startMs, verdicts, random) => {
      let call: CallState = FRESH_CALL;
      let firstUntil: number | undefined;
      for (const verdict of verdicts) {
        const action = decide({ verdict, call, operation: { method: 'tools/list' }, revision: '2025-11-25', nowMs: startMs, random, policy });
        if (action.type === 'wait-for-server') {
          firstUntil ??= action.untilMs;
          expect(action.untilMs).toBe(firstUntil);
        }
        if (action.type === 'give-up' || action.type === 'deliver') return;
        call = advance(call, action);
      }
    }), RUNS);
  });

  it('a connection broken after the request went out is not a refusal: an unsafe call still gets OUTCOME_UNKNOWN at once (invariant 5)', () => {
    const waiting = fc.record({ waits: fc.nat({ max: 40 }), waitUntilMs: nowMsArb });
    fc.assert(fc.property(policyArb, nowMsArb, waiting, saneRandomArb, (base, nowMs, wait, random) => {
      const policy = { ...base, replay: 'safe' as const, tools: {} };
      const call = { ...FRESH_CALL, ...wait };
      const action = decide({ verdict: { kind: 'outcome-unknown', reason: 'connection-broken' }, call, operation: { method: 'tools/call', toolName: 'pay' }, nowMs, random, policy });
      expect(action).toMatchObject({ type: 'give-up', error: { code: 'OUTCOME_UNKNOWN' } });
    }), RUNS);
  });
});

describe('createRestartWait', () => {
  it('accepts every consistent wait, and refuses any other with INVALID_OPTION naming the option', () => {
    const bad = fc.constantFrom(-1, Number.NaN, Infinity, -Infinity);
    const field = fc.constantFrom('initialMs', 'maxMs', 'factor', 'maxWaitMs');
    fc.assert(fc.property(restartWaitOverridesArb, field, bad, (good, name, value) => {
      expect(createRestartWait(good)).toMatchObject({ maxWaitMs: good.maxWaitMs });
      let thrown: unknown;
      try {
        createRestartWait({ ...good, [name]: value });
      } catch (error) {
        thrown = error;
      }
      expect(isResilienceError(thrown, 'INVALID_OPTION')).toBe(true);
      expect(thrown).toMatchObject({ details: { option: expect.stringMatching(/^restartWait\./) } });
    }), RUNS);
    expect(() => createRestartWait({ initialMs: 0.5 })).toThrow('restartWait.initialMs must be a finite number >= 1');
    expect(() => createRestartWait({ initialMs: 500, maxMs: 100 })).toThrow('restartWait.maxMs must be a finite number >= initialMs');
    expect(() => createRetryPolicy({ restartWait: { maxWaitMs: -5 } })).toThrow('restartWait.maxWaitMs must be a finite number >= 0');
  });
});
