import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay, createBackoff, equalJitter, fullJitter, noJitter } from './backoff.ts';
import { backoffOverridesArb, randomArb } from './test-support/arbitraries.ts';

const attemptArb = fc.oneof(fc.nat({ max: 20 }), fc.integer({ min: -5, max: 5 }), fc.nat({ max: 5_000 }));

describe('backoffDelay (invariant 4: bounded, jittered)', () => {
  it('is a finite integer >= 0 for any valid backoff, attempt, jitter and random number', () => {
    fc.assert(
      fc.property(backoffOverridesArb, attemptArb, randomArb, (overrides, attempt, random) => {
        const delay = backoffDelay(createBackoff(overrides), attempt, random);
        expect(Number.isInteger(delay), `delay ${delay}`).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('never exceeds maxMs ("kept within [0, maxMs]"), whatever the jitter returns', () => {
    fc.assert(
      fc.property(backoffOverridesArb, attemptArb, randomArb, (overrides, attempt, random) => {
        const backoff = createBackoff(overrides);
        const delay = backoffDelay(backoff, attempt, random);
        // `!(a > b)`: a NaN delay is reported by the property above, not here.
        expect(delay > backoff.maxMs, `delay ${delay} > maxMs ${backoff.maxMs}`).toBe(false);
      }),
    );
  });

  it('is finite for every attempt number a policy allows, even with initialMs 0 and a large factor', () => {
    fc.assert(
      fc.property(
        fc.record({
          initialMs: fc.constantFrom(0, 0.5, 100),
          maxMs: fc.constantFrom(100, 5_000),
          factor: fc.oneof(fc.constantFrom(1, 2, 10), fc.double({ min: 1, max: 100, noNaN: true })),
          jitter: fc.constantFrom(fullJitter, equalJitter, noJitter),
        }),
        fc.nat({ max: 10_000 }), // maxAttempts and maxResumes are any integer >= 0
        randomArb,
        (overrides, attempt, random) => {
          const delay = backoffDelay(createBackoff(overrides), attempt, random);
          expect(Number.isFinite(delay), `delay ${delay} at attempt ${attempt}`).toBe(true);
        },
      ),
    );
  });

  it('without jitter, never shrinks from one attempt to the next', () => {
    fc.assert(
      fc.property(backoffOverridesArb, fc.nat({ max: 40 }), randomArb, (overrides, attempt, random) => {
        const backoff = createBackoff({ ...overrides, jitter: noJitter });
        expect(backoffDelay(backoff, attempt + 1, random)).toBeGreaterThanOrEqual(backoffDelay(backoff, attempt, random));
      }),
    );
  });
});
