import { atLeast, checkedOptions, COUNT } from './check-option.ts';

/**
 * How many retries a whole client may make: at most `minPerWindow` plus `ratio` × calls in
 * each window. It keeps a fleet of clients from multiplying the load on a server that is
 * already failing. Values are immutable; each function returns a new state.
 *
 * @example
 * const budget: RetryBudget = createRetryBudget({ ratio: 0.1 });
 * canRetry(state, budget, now)
 */
export interface RetryBudget {
  readonly ratio: number;
  readonly minPerWindow: number;
  readonly windowMs: number;
}

/**
 * The calls and retries counted in the current window.
 *
 * @example
 * let state: RetryBudgetState | undefined;
 * state = recordCall(state, budget, now);
 * if (canRetry(state, budget, now)) state = recordRetry(state, budget, now);
 */
export interface RetryBudgetState {
  readonly windowStartMs: number;
  readonly calls: number;
  readonly retries: number;
}

/** Retries may add 20% to the calls, plus 10 in every 10 s window. */
export const DEFAULT_RETRY_BUDGET: RetryBudget = { ratio: 0.2, minPerWindow: 10, windowMs: 10_000 };

/**
 * A checked budget (throws `INVALID_OPTION` on a negative or non-finite value).
 *
 * @example
 * const budget = createRetryBudget({ ratio: 0.1 });
 */
export function createRetryBudget(overrides: Partial<RetryBudget> = {}): RetryBudget {
  return checkedOptions('retryBudget.', DEFAULT_RETRY_BUDGET, overrides, {
    ratio: atLeast(0),
    minPerWindow: COUNT,
    windowMs: [(n) => Number.isFinite(n) && n > 0, 'a finite number > 0'],
  });
}

function current(state: RetryBudgetState | undefined, budget: RetryBudget, nowMs: number): RetryBudgetState {
  const fresh = !state || nowMs - state.windowStartMs >= budget.windowMs || nowMs < state.windowStartMs;
  return fresh ? { windowStartMs: nowMs, calls: 0, retries: 0 } : state;
}

/**
 * Counts one call (a first attempt) in the budget.
 *
 * @example
 * let state = recordCall(undefined, DEFAULT_RETRY_BUDGET, now);
 */
export function recordCall(state: RetryBudgetState | undefined, budget: RetryBudget, nowMs: number): RetryBudgetState {
  const s = current(state, budget, nowMs);
  return { ...s, calls: s.calls + 1 };
}

/**
 * Whether the budget has room for one more retry now. Asking counts nothing.
 *
 * @example
 * const allowed = canRetry(state, DEFAULT_RETRY_BUDGET, now);
 */
export function canRetry(state: RetryBudgetState | undefined, budget: RetryBudget, nowMs: number): boolean {
  const s = current(state, budget, nowMs);
  return s.retries + 1 <= budget.minPerWindow + budget.ratio * s.calls;
}

/**
 * Counts one retry that is going ahead.
 *
 * @example
 * if (action.type === 'retry') state = recordRetry(state, DEFAULT_RETRY_BUDGET, now);
 */
export function recordRetry(state: RetryBudgetState | undefined, budget: RetryBudget, nowMs: number): RetryBudgetState {
  const s = current(state, budget, nowMs);
  return { ...s, retries: s.retries + 1 };
}
