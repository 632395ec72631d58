import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff.ts';
import { advance, createRetryPolicy, decide, FRESH_CALL, type Action, type DecisionInput } from './decide.ts';
import { isReplaySafe } from './replay-safety.ts';
import { retryAfterMs } from './retry-after.ts';
import { isSessionful } from './revisions.ts';
import {
  anyRevisionArb, brokenStreamArb, callRunArb, callStateArb, nowMsArb, operationArb, policyArb, requestOperationArb,
  randomArb, retryAfterArb, runCall, saneRandomArb, serverErrorArb, sessionfulRevisionArb, sessionGoneArb, sessionlessRevisionArb,
  verdictArb,
} from './test-support/arbitraries.ts';
import type { Verdict } from './verdict.ts';

const REPEATS = new Set<Action['type']>(['retry', 'reissue', 'reinitialize-and-replay']);
const delayOf = (action: Action) => ('delayMs' in action ? action.delayMs : undefined);
/** A delay of the ordinary backoff: not a wait for a refusing server, which has bounds of its own (restart-wait.property.test.ts). */
const backoffOf = (action: Action) => (action.type === 'wait-for-server' ? undefined : delayOf(action));
const withRevision = (revision: string | undefined) => (revision === undefined ? {} : { revision });

describe('decide: one replay per logical call (invariant 1)', () => {
  it('replays at most once, and a session loss after the replay is SESSION_LOST with the session dead', () => {
    fc.assert(
      fc.property(callRunArb(), (run) => {
        const steps = runCall(run);
        expect(steps.filter((s) => s.action.type === 'reinitialize-and-replay').length).toBeLessThanOrEqual(1);
        for (const { verdict, before, action } of steps) {
          if (verdict.kind === 'session-gone' && before.replays >= 1 && isSessionful(run.revision)) {
            expect(action).toMatchObject({ type: 'give-up', error: { code: 'SESSION_LOST' } });
          }
        }
      }),
    );
  });

  it('... also when session losses are mixed with backoffs and resumptions on a sessionful revision', () => {
    const mixed = (nowMs: number) => fc.oneof({ arbitrary: sessionGoneArb('not-processed'), weight: 1 }, { arbitrary: verdictArb(nowMs), weight: 3 });
    fc.assert(
      fc.property(callRunArb({ revision: sessionfulRevisionArb, operation: requestOperationArb, verdict: mixed }), (run) => {
        const steps = runCall(run);
        expect(steps.filter((s) => s.action.type === 'reinitialize-and-replay').length).toBeLessThanOrEqual(1);
        for (const { verdict, before, action } of steps) {
          if (verdict.kind === 'session-gone' && before.replays >= 1) {
            expect(action).toMatchObject({ type: 'give-up', error: { code: 'SESSION_LOST' } });
          }
        }
      }),
    );
  });

  it('replays at most once even when every failure is a session loss, on sessionful revisions', () => {
    fc.assert(
      fc.property(
        callRunArb({ revision: sessionfulRevisionArb }).chain((run) =>
          fc.array(sessionGoneArb(), { minLength: 2, maxLength: 10 }).map((verdicts) => ({ ...run, verdicts }))),
        (run) => {
          const steps = runCall(run);
          expect(steps.filter((s) => s.action.type === 'reinitialize-and-replay').length).toBeLessThanOrEqual(1);
          const last = steps.at(-1)!.action;
          expect(last.type).toBe('give-up');
          if (steps.length === 2) expect(last).toMatchObject({ error: { code: 'SESSION_LOST' } });
        },
      ),
    );
  });
});

describe('decide: bounded backoff (invariant 4)', () => {
  it('bounds retries+reissues by maxAttempts, resumes by maxResumes, total delay by maxTotalDelayMs', () => {
    fc.assert(
      fc.property(callRunArb(), (run) => {
        const steps = runCall(run);
        const { backoff, maxResumes } = run.policy;
        const count = (...types: Action['type'][]) => steps.filter((s) => types.includes(s.action.type)).length;
        expect(count('retry', 'reissue')).toBeLessThanOrEqual(backoff.maxAttempts);
        expect(count('resume')).toBeLessThanOrEqual(maxResumes);
        const total = steps.reduce((sum, s) => sum + (backoffOf(s.action) ?? 0), 0);
        // `!(a > b)` so that a NaN total is reported by the finiteness property below, not twice.
        expect(total > backoff.maxTotalDelayMs, `total delay ${total} > ${backoff.maxTotalDelayMs}`).toBe(false);
      }),
    );
  });

  it('every delay is a finite number >= 0, whatever random number the caller passes', () => {
    fc.assert(
      fc.property(callRunArb(), (run) => {
        for (const { action } of runCall(run)) {
          const delay = delayOf(action);
          if (delay === undefined) continue;
          expect(Number.isFinite(delay), `delayMs ${delay} in ${JSON.stringify(action)}`).toBe(true);
          expect(delay).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });

  it('no single delay exceeds max(backoff.maxMs, retryAfterCapMs × 1.1, restartWait.maxMs)', () => {
    fc.assert(
      fc.property(callRunArb(), (run) => {
        const bound = Math.max(run.policy.backoff.maxMs, run.policy.retryAfterCapMs * 1.1, run.policy.restartWait.maxMs);
        for (const { action } of runCall(run)) {
          const delay = delayOf(action);
          if (delay === undefined) continue;
          expect(delay > bound, `delayMs ${delay} > ${bound}`).toBe(false);
        }
      }),
    );
  });

  it('with the fleet-wide budget spent, nothing is retried or reissued', () => {
    fc.assert(
      fc.property(callRunArb(), (run) => {
        for (const { action } of runCall({ ...run, retryBudgetAllows: false })) {
          expect(['retry', 'reissue']).not.toContain(action.type);
        }
      }),
    );
  });
});

describe('decide: Retry-After honoured up to the cap (invariant 4)', () => {
  const scenario = nowMsArb.chain((nowMs) =>
    fc.record({
      nowMs: fc.constant(nowMs),
      kind: fc.constantFrom('rate-limited' as const, 'unavailable' as const),
      retryAfter: retryAfterArb(nowMs),
      call: callStateArb,
      policy: policyArb,
      operation: operationArb,
      revision: anyRevisionArb,
      random: saneRandomArb,
    }));

  it('waits at least the requested time when attempts and budget allow, and refuses a wait beyond the cap', () => {
    fc.assert(
      fc.property(scenario, ({ nowMs, kind, retryAfter, call, policy, operation, revision, random }) => {
        const verdict: Verdict = { kind, retryAfter };
        const action = decide({ verdict, call, operation, policy, nowMs, random, ...withRevision(revision) });
        const requested = retryAfterMs(retryAfter, nowMs);
        if (requested === undefined) return; // invalid header: ordinary backoff (covered by the bounds above)
        if (requested > policy.retryAfterCapMs) {
          expect(action).toMatchObject({ type: 'give-up', error: { code: 'RETRY_AFTER_TOO_LONG' } });
          return;
        }
        const room = call.retries < policy.backoff.maxAttempts &&
          call.delayMs + Math.ceil(requested * 1.1) + 1 <= policy.backoff.maxTotalDelayMs;
        if (room) expect(action.type).toBe('retry');
        if (action.type === 'retry') expect(action.delayMs).toBeGreaterThanOrEqual(requested);
        else if (call.retries >= policy.backoff.maxAttempts) expect(action).toMatchObject({ type: 'give-up', error: { code: 'RETRY_EXHAUSTED' } });
        // Attempts were left, so the server's wait did not fit in what the call may still wait.
        else expect(action).toMatchObject({ type: 'give-up', error: { code: 'RETRY_AFTER_TOO_LONG' } });
      }),
    );
  });

  it('the spread adds at most 10% to the requested wait: requested <= delayMs <= requested × 1.1', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('rate-limited' as const, 'unavailable' as const), nowMsArb, fc.nat({ max: 60_000 }), saneRandomArb,
        fc.constantFrom('delay' as const, 'date' as const),
        (kind, nowMs, requested, random, form) => {
          const verdict: Verdict = { kind, retryAfter: form === 'delay' ? { kind: 'delay', ms: requested } : { kind: 'date', epochMs: nowMs + requested } };
          const policy = createRetryPolicy({ retryAfterCapMs: 60_000, backoff: { maxAttempts: 1, maxTotalDelayMs: 1_000_000 } });
          const action = decide({ verdict, call: FRESH_CALL, operation: { method: 'ping' }, policy, nowMs, random });
          expect(action.type).toBe('retry');
          const delay = delayOf(action)!;
          expect(delay).toBeGreaterThanOrEqual(requested);
          expect(delay <= requested * 1.1, `delayMs ${delay} > ${requested} × 1.1`).toBe(true);
        },
      ),
    );
  });

  it('an HTTP-date is read relative to nowMs: it decides like a delay of (date - now), or 0 when past', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: -100_000, max: 200_000 }), ({ nowMs, kind, call, policy, operation, revision, random }, offset) => {
        const common = { call, operation, policy, nowMs, random, ...withRevision(revision) };
        const byDate = decide({ ...common, verdict: { kind, retryAfter: { kind: 'date', epochMs: nowMs + offset } } });
        const byDelay = decide({ ...common, verdict: { kind, retryAfter: { kind: 'delay', ms: Math.max(0, offset) } } });
        expect(byDate.type).toBe(byDelay.type);
        expect(delayOf(byDate)).toBe(delayOf(byDelay));
      }),
    );
  });
});

describe('decide: other 4xx never retried (invariant 4)', () => {
  it('client errors, unknown methods and unsupported versions are delivered untouched', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Verdict>({ kind: 'client-error', status: 400 }, { kind: 'client-error', status: 404, code: -32601 },
          { kind: 'client-error' }, { kind: 'method-not-found' }, { kind: 'version-unsupported', supported: ['2025-11-25'] }),
        callStateArb, policyArb, operationArb, anyRevisionArb, nowMsArb, saneRandomArb,
        (verdict, call, policy, operation, revision, nowMs, random) => {
          expect(decide({ verdict, call, policy, operation, nowMs, random, ...withRevision(revision) })).toEqual({ type: 'deliver' });
        },
      ),
    );
  });
});

describe('decide: unknown outcome repeated only if safe (invariant 5)', () => {
  const unknownOutcome = (nowMs: number) =>
    fc.oneof(
      serverErrorArb(nowMs, true),
      brokenStreamArb(),
      fc.constantFrom<Verdict>({ kind: 'outcome-unknown', reason: 'connection-broken' }, { kind: 'outcome-unknown', reason: 'timeout' }),
      sessionGoneArb('unknown'),
    );
  const scenario = nowMsArb.chain((nowMs) =>
    fc.record({
      nowMs: fc.constant(nowMs), verdict: unknownOutcome(nowMs), call: callStateArb, policy: policyArb, operation: operationArb,
      revision: anyRevisionArb, random: saneRandomArb, retryBudgetAllows: fc.boolean(),
    }));

  it('an operation that is not replay-safe is never retried, reissued or replayed', () => {
    fc.assert(
      fc.property(scenario, ({ revision, ...input }) => {
        fc.pre(!isReplaySafe(input.operation, input.policy.replay, input.policy.tools));
        const action = decide({ ...input, ...withRevision(revision) });
        expect(REPEATS.has(action.type), JSON.stringify(action)).toBe(false);
      }),
    );
  });

  it('... and its caller gets OUTCOME_UNKNOWN at once (server error, unresumable stream, broken connection)', () => {
    fc.assert(
      fc.property(scenario, ({ revision, ...input }) => {
        const { verdict } = input;
        fc.pre(!isReplaySafe(input.operation, input.policy.replay, input.policy.tools));
        fc.pre(verdict.kind === 'outcome-unknown' || verdict.kind === 'server-error' || (verdict.kind === 'broken-stream' && !verdict.resumable));
        expect(decide({ ...input, ...withRevision(revision) })).toMatchObject({ type: 'give-up', error: { code: 'OUTCOME_UNKNOWN' } });
      }),
    );
  });

  it('a session lost with the request in flight gives OUTCOME_UNKNOWN and a dead session for an unsafe call', () => {
    fc.assert(
      fc.property(scenario, sessionfulRevisionArb, requestOperationArb, ({ revision: _, ...input }, revision, operation) => {
        fc.pre(!isReplaySafe(operation, input.policy.replay, input.policy.tools));
        const call = { ...input.call, replays: 0 };
        const action = decide({ ...input, call, operation, revision, verdict: { kind: 'session-gone', dialect: 'connection-closed', outcome: 'unknown' } });
        expect(action).toMatchObject({ type: 'give-up', error: { code: 'OUTCOME_UNKNOWN' } });
      }),
    );
  });

  it('a request the server did not process is sent again even under replay "never", when budgets allow', () => {
    const notProcessed = (nowMs: number) =>
      fc.oneof(
        fc.constantFrom('rate-limited' as const, 'unavailable' as const).chain((kind) =>
          fc.option(retryAfterArb(nowMs), { nil: undefined }).map((ra): Verdict => (ra === undefined ? { kind } : { kind, retryAfter: ra }))),
        fc.constant<Verdict>({ kind: 'not-processed', reason: 'connection-refused' }),
        sessionGoneArb('not-processed'),
      );
    fc.assert(
      fc.property(
        nowMsArb.chain((nowMs) =>
          fc.record({
            nowMs: fc.constant(nowMs), verdict: notProcessed(nowMs), call: callStateArb, policy: policyArb,
            operation: requestOperationArb, revision: sessionfulRevisionArb, random: saneRandomArb,
          })),
        ({ policy: base, call: anyCall, ...input }) => {
          const policy = { ...base, replay: 'never' as const, tools: {} };
          const call = { ...anyCall, replays: 0 };
          const action = decide({ ...input, policy, call });
          if (input.verdict.kind === 'session-gone') {
            expect(action).toEqual({ type: 'reinitialize-and-replay' });
            return;
          }
          if (action.type === 'retry' || action.type === 'wait-for-server') return;
          if (input.verdict.kind === 'not-processed') {
            // A refused connection is waited out until its deadline, and only the deadline stops it.
            expect(action).toMatchObject({ type: 'give-up', error: { code: 'SERVER_UNREACHABLE' } });
            expect(call.waitUntilMs ?? input.nowMs + policy.restartWait.maxWaitMs).toBeLessThanOrEqual(input.nowMs);
            return;
          }
          // Only a budget may stop it, and then the budget must really be spent.
          const retryAfter = 'retryAfter' in input.verdict ? input.verdict.retryAfter : undefined;
          const requested = retryAfterMs(retryAfter, input.nowMs);
          const wait = requested ?? backoffDelay(policy.backoff, call.retries, input.random);
          expect(action.type).toBe('give-up');
          if (action.type !== 'give-up') return;
          if (action.error.code === 'RETRY_AFTER_TOO_LONG') {
            // Above the cap, or (with its spread of at most 10%) beyond what the call may still wait.
            expect(requested).toBeDefined();
            const tooLong = requested! > policy.retryAfterCapMs || call.delayMs + requested! * 1.1 > policy.backoff.maxTotalDelayMs;
            expect(tooLong).toBe(true);
          }
          else {
            expect(action.error.code).toBe('RETRY_EXHAUSTED');
            expect(call.retries >= policy.backoff.maxAttempts || call.delayMs + wait > policy.backoff.maxTotalDelayMs).toBe(true);
          }
        },
      ),
    );
  });

  it('a replay-safe request whose outcome is unknown is reissued when budgets allow', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Verdict>(
          { kind: 'outcome-unknown', reason: 'connection-broken' }, { kind: 'broken-stream', resumable: false },
          { kind: 'server-error', status: 502, retryable: true },
        ),
        fc.constantFrom('tools/list', 'resources/read', 'ping'), anyRevisionArb, nowMsArb, saneRandomArb,
        (verdict, method, revision, nowMs, random) => {
          const policy = createRetryPolicy({ backoff: { maxAttempts: 3, maxTotalDelayMs: 1_000_000 } });
          const action = decide({ verdict, call: FRESH_CALL, operation: { method }, policy, nowMs, random, ...withRevision(revision) });
          expect(action.type).toBe('reissue');
        },
      ),
    );
  });

  it('a request past the caller\'s own deadline is never sent again, however safe', () => {
    fc.assert(
      fc.property(callStateArb, policyArb, operationArb, anyRevisionArb, nowMsArb, randomArb, (call, policy, operation, revision, nowMs, random) => {
        const verdict: Verdict = { kind: 'outcome-unknown', reason: 'timeout' };
        const action = decide({ verdict, call, operation, policy: { ...policy, replay: 'always' }, nowMs, random, ...withRevision(revision) });
        expect(action).toMatchObject({ type: 'give-up', error: { code: 'OUTCOME_UNKNOWN' } });
      }),
    );
  });
});

describe('decide: no session logic without sessions (invariant 6)', () => {
  it('never re-initializes or resumes on 2024-11-05, 2026-07-28 or any later revision', () => {
    fc.assert(
      fc.property(
        callRunArb({ revision: sessionlessRevisionArb }).chain((run) =>
          fc.array(fc.oneof(sessionGoneArb(), brokenStreamArb(true), verdictArb(run.nowMs)), { minLength: 1, maxLength: 20 })
            .map((verdicts) => ({ ...run, verdicts }))),
        (run) => {
          for (const { action } of runCall(run)) {
            expect(['reinitialize-and-replay', 'resume']).not.toContain(action.type);
          }
        },
      ),
    );
  });

  it('a session loss on a sessionless revision is delivered, not acted on', () => {
    fc.assert(
      fc.property(sessionGoneArb(), sessionlessRevisionArb, callStateArb, policyArb, operationArb, nowMsArb, saneRandomArb,
        (verdict, revision, call, policy, operation, nowMs, random) => {
          const input: DecisionInput = { verdict, revision, call, policy, operation, nowMs, random };
          expect(decide(input)).toEqual({ type: 'deliver' });
        }),
    );
  });
});

describe('advance', () => {
  it('counts exactly what the action used', () => {
    fc.assert(
      fc.property(callRunArb(), (run) => {
        for (const { before, action } of runCall(run)) {
          const after = advance(before, action);
          expect(after.replays - before.replays).toBe(action.type === 'reinitialize-and-replay' ? 1 : 0);
          expect(after.retries - before.retries).toBe(action.type === 'retry' || action.type === 'reissue' ? 1 : 0);
          expect(after.resumes - before.resumes).toBe(action.type === 'resume' ? 1 : 0);
        }
      }),
    );
  });
});
