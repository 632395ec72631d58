import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classify } from './classify.ts';
import { decide } from './decide.ts';
import type { SessionGoneDialect } from './dialects.ts';
import { readRpcError } from './json-rpc.ts';
import { isReplaySafe } from './replay-safety.ts';
import { isSessionful } from './revisions.ts';
import {
  anyRevisionArb, bodyArb, callStateArb, dialectBodyArb, httpObservationArb, nowMsArb, observationArb, operationArb, policyArb,
  randomArb, sessionfulRevisionArb, sessionlessRevisionArb,
} from './test-support/arbitraries.ts';
import type { VerdictKind } from './verdict.ts';

const VERDICT_KINDS: readonly VerdictKind[] = [
  'success', 'session-gone', 'rate-limited', 'unavailable', 'server-error', 'client-error', 'broken-stream',
  'outcome-unknown', 'not-processed', 'blocked', 'method-not-found', 'version-unsupported', 'malformed',
];
const other4xx = fc.integer({ min: 400, max: 499 }).filter((s) => s !== 429);
const withRevision = (revision: string | undefined) => (revision === undefined ? {} : { revision });

/** Extra dialect rows a user could configure, including ones that match almost anything. */
const extraDialectArb: fc.Arbitrary<SessionGoneDialect> = fc
  .record(
    {
      status: fc.constantFrom(400, 404, 410, 500),
      code: fc.oneof(fc.constant(null), fc.constantFrom(-32000, -32001)),
      message: fc.string({ maxLength: 4 }),
      messagePrefix: fc.string({ maxLength: 2 }),
      reason: fc.string({ maxLength: 4 }),
      text: fc.string({ maxLength: 4 }),
    },
    { requiredKeys: [] },
  )
  .chain((row) =>
    fc.record({ name: fc.string({ maxLength: 6 }), outcome: fc.constantFrom('not-processed' as const, 'unknown' as const) })
      .map((head): SessionGoneDialect => ({ ...head, ...row, spokenBy: [] })));
const optionsArb = fc.option(fc.record({ dialects: fc.array(extraDialectArb, { maxLength: 3 }) }), { nil: undefined });

describe('classify: other 4xx never retried (invariant 4)', () => {
  it('a 4xx other than 429 on a request without a session id is delivered, on any revision', () => {
    fc.assert(
      fc.property(
        httpObservationArb({ status: other4xx, sessionIdSent: fc.constant(false) }),
        callStateArb, policyArb, operationArb, nowMsArb, randomArb,
        (observation, call, policy, operation, nowMs, random) => {
          const verdict = classify(observation);
          const action = decide({ verdict, call, policy, operation, nowMs, random, ...withRevision(observation.revision) });
          expect(action).toEqual({ type: 'deliver' });
        },
      ),
    );
  });

  it('with a session id sent, a 4xx other than 429 is either a session loss or delivered', () => {
    fc.assert(
      fc.property(
        httpObservationArb({ status: other4xx, sessionIdSent: fc.constant(true) }),
        callStateArb, policyArb, operationArb, nowMsArb, randomArb,
        (observation, call, policy, operation, nowMs, random) => {
          const verdict = classify(observation);
          if (verdict.kind === 'session-gone') {
            expect(isSessionful(observation.revision)).toBe(true);
            return;
          }
          const action = decide({ verdict, call, policy, operation, nowMs, random, ...withRevision(observation.revision) });
          expect(action).toEqual({ type: 'deliver' });
        },
      ),
    );
  });

  it('429 is rate-limited, whatever the body, unless a session-gone dialect matched', () => {
    fc.assert(
      fc.property(httpObservationArb({ status: fc.constant(429) }), (observation) => {
        const verdict = classify(observation);
        if (verdict.kind === 'session-gone') return;
        expect(verdict.kind).toBe('rate-limited');
      }),
    );
  });
});

describe('classify: a 503 is "not processed" only in the server\'s own words (invariant 5)', () => {
  const vouched = (o: { retryAfter?: string | null; body?: unknown }) => !!o.retryAfter?.trim() || readRpcError(o.body) !== undefined;

  it('a 503 is unavailable when it carries a Retry-After or a JSON-RPC error, else a retryable server error (outcome unknown)', () => {
    fc.assert(
      fc.property(httpObservationArb({ status: fc.constant(503) }), (observation) => {
        const verdict = classify(observation);
        if (verdict.kind === 'session-gone') return;
        expect(verdict.kind).toBe(vouched(observation) ? 'unavailable' : 'server-error');
        if (verdict.kind === 'server-error') expect(verdict.retryable).toBe(true);
      }),
    );
  });

  it('a 503 without the server\'s word is never sent again for a call that is not safe to replay: OUTCOME_UNKNOWN at once', () => {
    fc.assert(
      fc.property(
        httpObservationArb({ status: fc.constant(503) }), callStateArb, policyArb, operationArb, nowMsArb, randomArb,
        (observation, call, policy, operation, nowMs, random) => {
          fc.pre(!vouched(observation) && !isReplaySafe(operation, policy.replay, policy.tools));
          const verdict = classify(observation);
          if (verdict.kind === 'session-gone') return;
          const action = decide({ verdict, call, policy, operation, nowMs, random, ...withRevision(observation.revision) });
          expect(action).toMatchObject({ type: 'give-up', error: { code: 'OUTCOME_UNKNOWN' } });
        },
      ),
    );
  });
});

describe('classify: no session logic without sessions (invariant 6)', () => {
  it('never reports a session loss or a resumable stream on 2024-11-05, 2026-07-28 or later revisions', () => {
    fc.assert(
      fc.property(observationArb({ revision: sessionlessRevisionArb }), optionsArb, (observation, options) => {
        const verdict = classify(observation, options);
        expect(verdict.kind).not.toBe('session-gone');
        if (verdict.kind === 'broken-stream') expect(verdict.resumable).toBe(false);
      }),
    );
  });

  it('never reports a session loss on any revision string without sessions', () => {
    fc.assert(
      fc.property(
        observationArb({ revision: fc.oneof(sessionlessRevisionArb, fc.stringMatching(/^\d{4}-\d{2}-\d{2}$/), fc.string({ maxLength: 12 })) }),
        optionsArb,
        (observation, options) => {
          fc.pre(!isSessionful(observation.revision));
          expect(classify(observation, options).kind).not.toBe('session-gone');
        },
      ),
    );
  });

  it('a 404 on 2026-07-28 or later is never a session loss, with or without a session id', () => {
    fc.assert(
      fc.property(httpObservationArb({ status: fc.constant(404), revision: sessionlessRevisionArb }), (observation) => {
        expect(['client-error', 'method-not-found']).toContain(classify(observation).kind);
      }),
    );
  });
});

describe('classify: session logic only for requests that carried a session id (invariant 6)', () => {
  it('never reports a session loss when no session id was sent, on any revision and any body', () => {
    fc.assert(
      fc.property(observationArb({ sessionIdSent: fc.constant(false) }), optionsArb, (observation, options) => {
        expect(classify(observation, options).kind).not.toBe('session-gone');
      }),
    );
  });

  it('does recognise a session loss when one was sent on a sessionful revision (the property above is not vacuous)', () => {
    fc.assert(
      fc.property(httpObservationArb({ status: fc.constant(404), revision: sessionfulRevisionArb, sessionIdSent: fc.constant(true) }), (observation) => {
        expect(classify(observation).kind).toBe('session-gone');
      }),
    );
  });
});

describe('classify: total on arbitrary input', () => {
  it('never throws and always returns a known verdict', () => {
    fc.assert(
      fc.property(observationArb(), optionsArb, (observation, options) => {
        const verdict = classify(observation, options);
        expect(VERDICT_KINDS).toContain(verdict.kind);
        if (verdict.kind === 'session-gone' && verdict.serverUptimeSeconds !== undefined) {
          expect(Number.isFinite(verdict.serverUptimeSeconds) && verdict.serverUptimeSeconds >= 0).toBe(true);
        }
        if (verdict.kind === 'broken-stream' && verdict.retryMs !== undefined) {
          expect(Number.isInteger(verdict.retryMs) && verdict.retryMs >= 0).toBe(true);
        }
        if ('retryAfter' in verdict && verdict.retryAfter?.kind === 'delay') expect(verdict.retryAfter.ms).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('readRpcError never throws, and what it reads has an integer code and a string message', () => {
    fc.assert(
      fc.property(bodyArb, (body) => {
        const error = readRpcError(body);
        if (error === undefined) return;
        expect(Number.isInteger(error.code)).toBe(true);
        expect(typeof error.message).toBe('string');
      }),
    );
  });

  it('readRpcError reads a body the same as text and as parsed JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(readRpcError(JSON.stringify(value))).toEqual(readRpcError(value));
      }),
    );
  });

  it('classify reads an http body the same as JSON text and as the value it parses to', () => {
    const parses = (text: string) => { try { JSON.parse(text); return true; } catch { return false; } };
    fc.assert(
      fc.property(
        httpObservationArb({ revision: anyRevisionArb }),
        fc.oneof(fc.json(), dialectBodyArb.filter((b): b is string => typeof b === 'string' && parses(b))),
        (observation, text) => {
          const parsed: unknown = JSON.parse(text);
          fc.pre(typeof parsed === 'object'); // a JSON string or number parses to something that is not a body
          expect(classify({ ...observation, body: text })).toEqual(classify({ ...observation, body: parsed }));
        },
      ),
    );
  });
});
