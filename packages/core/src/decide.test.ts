import { describe, expect, it } from 'vitest';
import { noJitter } from './backoff.ts';
import { advance, createRetryPolicy, decide, DEFAULT_RETRY_POLICY, FRESH_CALL, type DecisionInput } from './decide.ts';
import type { Verdict } from './verdict.ts';

const policy = createRetryPolicy({
  backoff: { initialMs: 100, maxMs: 1_000, factor: 2, maxAttempts: 3, maxTotalDelayMs: 2_000, jitter: noJitter },
  retryAfterCapMs: 5_000,
});
const base = { call: FRESH_CALL, operation: { method: 'tools/list' }, revision: '2025-11-25', policy, nowMs: 0, random: 0 };
const at = (verdict: Verdict, extra: Partial<DecisionInput> = {}) => decide({ ...base, verdict, ...extra });
const GONE: Verdict = { kind: 'session-gone', dialect: 'typescript-sdk', outcome: 'not-processed' };
const PAY = { method: 'tools/call', toolName: 'pay' };

describe('decide: session loss', () => {
  it('re-initializes and replays once, then gives up with SESSION_LOST', () => {
    const first = at(GONE);
    expect(first).toEqual({ type: 'reinitialize-and-replay' });
    const call = advance(FRESH_CALL, first);
    expect(at(GONE, { call })).toMatchObject({ type: 'give-up', error: { code: 'SESSION_LOST' } });
  });

  it('replays even an unsafe call the server never processed', () => {
    expect(at(GONE, { operation: PAY, policy: { ...policy, replay: 'never' } })).toEqual({ type: 'reinitialize-and-replay' });
  });

  it('replays a call caught by "Connection closed" only when safe', () => {
    const closed: Verdict = { kind: 'session-gone', dialect: 'connection-closed', outcome: 'unknown' };
    expect(at(closed)).toEqual({ type: 'reinitialize-and-replay' });
    expect(at(closed, { operation: PAY })).toMatchObject({ type: 'give-up', error: { code: 'OUTCOME_UNKNOWN' } });
  });

  it('has nothing to replay a POSTed response to', () => {
    expect(at(GONE, { operation: {} })).toMatchObject({ type: 'give-up', error: { code: 'SESSION_LOST' } });
  });

  it('opens the standalone stream again on the new session', () => {
    expect(at(GONE, { operation: { stream: true } })).toEqual({ type: 'reinitialize-and-replay' });
  });

  it('runs no session logic on a revision without sessions', () => {
    expect(at(GONE, { revision: '2026-07-28' })).toEqual({ type: 'deliver' });
  });
});

describe('decide: backing off on the same session', () => {
  it('follows the backoff, then runs out of attempts', () => {
    let call = FRESH_CALL;
    const delays: number[] = [];
    for (;;) {
      const action = at({ kind: 'rate-limited' }, { call });
      if (action.type !== 'retry') {
        expect(action).toMatchObject({ type: 'give-up', error: { code: 'RETRY_EXHAUSTED', details: { attempts: 3 } } });
        break;
      }
      delays.push(action.delayMs);
      call = advance(call, action);
    }
    expect(delays).toEqual([100, 200, 400]);
  });

  it('honours Retry-After as a floor with a little spread, and refuses one above the cap', () => {
    const retryAfter = { kind: 'delay', ms: 1_000 } as const;
    expect(at({ kind: 'unavailable', retryAfter })).toEqual({ type: 'retry', delayMs: 1_000, attempt: 1 });
    expect(at({ kind: 'unavailable', retryAfter }, { random: 0.5 })).toEqual({ type: 'retry', delayMs: 1_050, attempt: 1 });
    expect(at({ kind: 'rate-limited', retryAfter: { kind: 'date', epochMs: 3_000 } }, { nowMs: 1_000 })).toMatchObject({ delayMs: 2_000 });
    expect(at({ kind: 'rate-limited', retryAfter: { kind: 'delay', ms: 86_400_000 } }))
      .toMatchObject({ type: 'give-up', error: { code: 'RETRY_AFTER_TOO_LONG', details: { retryAfterMs: 86_400_000, capMs: 5_000 } } });
  });

  it('ignores a date Retry-After read against a broken clock', () => {
    expect(at({ kind: 'rate-limited', retryAfter: { kind: 'date', epochMs: 5_000 } }, { nowMs: Number.NaN })).toEqual({ type: 'retry', delayMs: 100, attempt: 1 });
  });

  it('ignores an invalid Retry-After', () => {
    expect(at({ kind: 'rate-limited', retryAfter: { kind: 'invalid', raw: '-1' } })).toEqual({ type: 'retry', delayMs: 100, attempt: 1 });
  });

  it('stops at the total delay budget', () => {
    expect(at({ kind: 'rate-limited' }, { call: { ...FRESH_CALL, retries: 1, delayMs: 1_950 } }))
      .toMatchObject({ type: 'give-up', error: { code: 'RETRY_EXHAUSTED', details: { attempts: 1 } } });
  });

  it('calls a Retry-After that no longer fits in the budget too long, not exhausted', () => {
    const retryAfter = { kind: 'delay', ms: 1_500 } as const;
    expect(at({ kind: 'rate-limited', retryAfter }, { call: { ...FRESH_CALL, retries: 1, delayMs: 1_000 } }))
      .toMatchObject({ type: 'give-up', error: { code: 'RETRY_AFTER_TOO_LONG', details: { retryAfterMs: 1_500, remainingMs: 1_000 } } });
  });

  it('honours by default any Retry-After it accepts', () => {
    const retryAfter = { kind: 'delay', ms: DEFAULT_RETRY_POLICY.retryAfterCapMs } as const;
    expect(decide({ ...base, policy: DEFAULT_RETRY_POLICY, verdict: { kind: 'rate-limited', retryAfter }, random: 0.999 }))
      .toMatchObject({ type: 'retry' });
  });

  it('asks the retry budget last', () => {
    expect(at({ kind: 'rate-limited' }, { retryBudgetAllows: false })).toMatchObject({ error: { code: 'RETRY_BUDGET_EXHAUSTED' } });
  });

  it('waits for a server that refused the connection whatever the replay policy, on a budget of its own', () => {
    const refused = { kind: 'not-processed', reason: 'connection-refused' } as const;
    expect(at(refused, { operation: PAY })).toEqual({ type: 'wait-for-server', delayMs: 50, attempt: 1, untilMs: 20_000 });
    // Neither the backoff's attempts and total delay nor the fleet's retry budget stop it: only its deadline.
    const spent = { ...FRESH_CALL, retries: 9, delayMs: 60_000, waits: 30, waitUntilMs: 500 };
    expect(at(refused, { operation: PAY, call: spent, retryBudgetAllows: false })).toMatchObject({ type: 'wait-for-server', attempt: 31, untilMs: 500 });
    expect(at(refused, { operation: PAY, call: { ...spent, waitUntilMs: 0 } }))
      .toMatchObject({ type: 'give-up', error: { code: 'SERVER_UNREACHABLE', details: { attempts: 30, maxWaitMs: 20_000 } } });
  });
});

describe('decide: unknown outcomes', () => {
  it('re-issues a 502 under a new id only when safe (it may still be running under the old one)', () => {
    const v: Verdict = { kind: 'server-error', status: 502, retryable: true };
    expect(at(v)).toEqual({ type: 'reissue', delayMs: 100, attempt: 1 });
    expect(at(v, { operation: PAY })).toMatchObject({ type: 'give-up', error: { code: 'OUTCOME_UNKNOWN' } });
    expect(at({ kind: 'server-error', status: 501, retryable: false })).toEqual({ type: 'deliver' });
  });

  it('re-issues a broken connection only when safe', () => {
    const v: Verdict = { kind: 'outcome-unknown', reason: 'connection-broken' };
    expect(at(v)).toEqual({ type: 'reissue', delayMs: 100, attempt: 1 });
    expect(at(v, { operation: PAY })).toMatchObject({ error: { code: 'OUTCOME_UNKNOWN' } });
    expect(at(v, { operation: PAY, policy: { ...policy, tools: { idempotentTools: ['pay'] } } })).toMatchObject({ type: 'reissue' });
  });

  it('never repeats a call past the caller\'s own deadline', () => {
    expect(at({ kind: 'outcome-unknown', reason: 'timeout' }, { policy: { ...policy, replay: 'always' } }))
      .toMatchObject({ type: 'give-up', error: { code: 'OUTCOME_UNKNOWN', details: { reason: 'timeout' } } });
  });

  it('keeps a Retry-After that fits the budget, trimming only its spread', () => {
    const retryAfter = { kind: 'delay', ms: 1_900 } as const;
    expect(at({ kind: 'rate-limited', retryAfter }, { random: 0.99 })).toEqual({ type: 'retry', delayMs: 2_000, attempt: 1 });
  });
});

describe('decide: broken streams', () => {
  const resumable: Verdict = { kind: 'broken-stream', resumable: true, lastEventId: 'e9', retryMs: 300 };

  it('resumes from the last event after the server retry, even for an unsafe call', () => {
    expect(at(resumable, { operation: PAY })).toEqual({ type: 'resume', lastEventId: 'e9', delayMs: 300, attempt: 1 });
  });

  it('falls back to a re-issue when resumes run out, and only when safe', () => {
    const call = { ...FRESH_CALL, resumes: policy.maxResumes };
    expect(at(resumable, { call })).toEqual({ type: 'reissue', delayMs: 100, attempt: 1 });
    expect(at(resumable, { call, operation: PAY })).toMatchObject({ error: { code: 'OUTCOME_UNKNOWN' } });
  });

  it('does not wait for a server retry above the cap: re-issues if safe, else OUTCOME_UNKNOWN', () => {
    expect(at({ ...resumable, retryMs: 60_000 })).toEqual({ type: 'reissue', delayMs: 100, attempt: 1 });
    expect(at({ ...resumable, retryMs: 60_000 }, { operation: PAY })).toMatchObject({ error: { code: 'OUTCOME_UNKNOWN' } });
  });

  it('never resumes on 2026-07-28', () => {
    expect(at(resumable, { revision: '2026-07-28' })).toEqual({ type: 'reissue', delayMs: 100, attempt: 1 });
  });
});

describe('decide: final answers', () => {
  it.each<Verdict>([
    { kind: 'success' }, { kind: 'client-error', status: 400 }, { kind: 'method-not-found' },
    { kind: 'version-unsupported', supported: ['2025-11-25'] },
  ])('delivers $kind', (verdict) => {
    expect(at(verdict)).toEqual({ type: 'deliver' });
  });

  it('gives up on a malformed response', () => {
    expect(at({ kind: 'malformed', contentType: 'text/html' })).toMatchObject({ error: { code: 'MALFORMED_RESPONSE' } });
  });
});

describe('advance', () => {
  it('counts what each action used', () => {
    let call = advance(FRESH_CALL, { type: 'retry', delayMs: 100, attempt: 1 });
    call = advance(call, { type: 'resume', lastEventId: 'e', delayMs: 50, attempt: 1 });
    call = advance(call, { type: 'reinitialize-and-replay' });
    call = advance(call, { type: 'deliver' });
    expect(call).toEqual({ replays: 1, retries: 1, resumes: 1, delayMs: 150 });
  });
});

describe('createRetryPolicy', () => {
  it('checks its values', () => {
    expect(() => createRetryPolicy({ retryAfterCapMs: -1 })).toThrow(/retryAfterCapMs/);
    expect(() => createRetryPolicy({ maxResumes: 0.5 })).toThrow(/maxResumes/);
    expect(() => createRetryPolicy({ backoff: { factor: 0 } })).toThrow(/factor/);
  });
});

describe('decide: a broken random source', () => {
  it('still waits a finite, bounded time', () => {
    for (const random of [Number.NaN, -1, 7, Number.POSITIVE_INFINITY]) {
      const action = at({ kind: 'rate-limited', retryAfter: { kind: 'delay', ms: 1_000 } }, { random });
      expect(action).toMatchObject({ type: 'retry' });
      const { delayMs } = action as { delayMs: number };
      expect(delayMs).toBeGreaterThanOrEqual(1_000);
      expect(delayMs).toBeLessThanOrEqual(1_100);
    }
  });
});
