import { describe, expect, it } from 'vitest';
import { canRetry, createRetryBudget, recordCall, recordRetry, type RetryBudgetState } from './retry-budget.ts';

describe('retry budget', () => {
  const budget = createRetryBudget({ ratio: 0.5, minPerWindow: 1, windowMs: 1_000 });

  it('allows the minimum plus a share of the calls', () => {
    let state: RetryBudgetState | undefined;
    for (let i = 0; i < 4; i++) state = recordCall(state, budget, 0);
    let retries = 0;
    while (canRetry(state, budget, 10)) {
      state = recordRetry(state, budget, 10);
      retries++;
    }
    expect(retries).toBe(3); // 1 + 0.5 × 4
  });

  it('starts a new window when the old one is over (or the clock went back)', () => {
    let state: RetryBudgetState | undefined = recordRetry(undefined, budget, 0);
    expect(canRetry(state, budget, 999)).toBe(false);
    expect(canRetry(state, budget, 1_000)).toBe(true);
    state = recordRetry(undefined, budget, 5_000);
    expect(canRetry(state, budget, 4_000)).toBe(true);
  });

  it('asking changes nothing', () => {
    const state = recordCall(undefined, budget, 0);
    canRetry(state, budget, 1);
    expect(state).toEqual({ windowStartMs: 0, calls: 1, retries: 0 });
  });

  it('rejects bad values', () => {
    expect(() => createRetryBudget({ windowMs: 0 })).toThrow(/windowMs/);
    expect(() => createRetryBudget({ ratio: -1 })).toThrow(/ratio/);
  });
});
