import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canRetry, createRetryBudget, recordCall, recordRetry, type RetryBudgetState } from './retry-budget.ts';

describe('retry budget (invariant 4: bounded across a client)', () => {
  it('answers exactly as a reference model, never granting more than minPerWindow + ratio × calls', () => {
    fc.assert(
      fc.property(
        fc.record({ ratio: fc.double({ min: 0, max: 2, noNaN: true }), minPerWindow: fc.nat({ max: 10 }), windowMs: fc.integer({ min: 1, max: 10_000 }) }),
        fc.array(fc.record({ kind: fc.constantFrom('call' as const, 'retry' as const), advanceMs: fc.nat({ max: 500 }) }), { maxLength: 200 }),
        (overrides, events) => {
          const budget = createRetryBudget(overrides);
          let state: RetryBudgetState | undefined;
          let now = 0;
          // The model: a window starts at the first event it records (asking records nothing).
          let windowStart: number | undefined;
          let calls = 0;
          let granted = 0;
          for (const event of events) {
            now += event.advanceMs;
            const expired = windowStart === undefined || now - windowStart >= budget.windowMs;
            const [c, g] = expired ? [0, 0] : [calls, granted];
            if (event.kind === 'call') {
              state = recordCall(state, budget, now);
              if (expired) windowStart = now;
              [calls, granted] = [c + 1, g];
              continue;
            }
            const allowed = g + 1 <= budget.minPerWindow + budget.ratio * c;
            expect(canRetry(state, budget, now)).toBe(allowed);
            if (!allowed) continue;
            state = recordRetry(state, budget, now);
            if (expired) windowStart = now;
            [calls, granted] = [c, g + 1];
            expect(granted).toBeLessThanOrEqual(budget.minPerWindow + budget.ratio * calls);
          }
        },
      ),
      { numRuns: 2_000 },
    );
  }, 60_000); // all 2,000 runs, however slow the machine: a fixed count, never a time limit
});
