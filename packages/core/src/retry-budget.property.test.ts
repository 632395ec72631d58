import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canRetry, createRetryBudget, recordCall, recordRetry, type RetryBudgetState } from './retry-budget.ts';

describe('retry budget (invariant 4: bounded across a client)', () => {
  it('retries granted by canRetry within one window never exceed minPerWindow + ratio × calls', () => {
    fc.assert(
      fc.property(
        fc.record({ ratio: fc.double({ min: 0, max: 2, noNaN: true }), minPerWindow: fc.nat({ max: 10 }), windowMs: fc.integer({ min: 1, max: 10_000 }) }),
        fc.array(fc.record({ kind: fc.constantFrom('call' as const, 'retry' as const), advanceMs: fc.nat({ max: 500 }) }), { maxLength: 200 }),
        (overrides, events) => {
          const budget = createRetryBudget(overrides);
          let state: RetryBudgetState | undefined;
          let now = 0;
          let windowStart: number | undefined;
          let calls = 0;
          let granted = 0;
          for (const event of events) {
            now += event.advanceMs;
            if (windowStart === undefined || now - windowStart >= budget.windowMs) [windowStart, calls, granted] = [now, 0, 0];
            if (event.kind === 'call') {
              state = recordCall(state, budget, now);
              calls++;
            } else if (canRetry(state, budget, now)) {
              state = recordRetry(state, budget, now);
              granted++;
              expect(granted).toBeLessThanOrEqual(budget.minPerWindow + budget.ratio * calls);
            }
          }
        },
      ),
    );
  });
});
