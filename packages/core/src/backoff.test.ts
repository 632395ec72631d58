import { describe, expect, it } from 'vitest';
import { backoffDelay, createBackoff, DEFAULT_BACKOFF, equalJitter, fullJitter, noJitter } from './backoff.ts';
import { isResilienceError } from './errors.ts';

describe('backoffDelay', () => {
  const plain = createBackoff({ initialMs: 100, maxMs: 1_000, factor: 2, jitter: noJitter });

  it('grows by the factor up to the cap', () => {
    expect([0, 1, 2, 3, 4, 10, 5000].map((n) => backoffDelay(plain, n, 0.5))).toEqual([100, 200, 400, 800, 1000, 1000, 1000]);
  });

  it('jitters within the computed delay', () => {
    const full = { ...plain, jitter: fullJitter };
    const equal = { ...plain, jitter: equalJitter };
    expect(backoffDelay(full, 2, 0)).toBe(0);
    expect(backoffDelay(full, 2, 0.5)).toBe(200);
    expect(backoffDelay(equal, 2, 0)).toBe(200);
    expect(backoffDelay(equal, 2, 0.999)).toBe(400);
    expect(backoffDelay(DEFAULT_BACKOFF, 2, 0.5)).toBe(600);
  });

  it('survives a broken random source or jitter function', () => {
    const full = { ...plain, jitter: fullJitter };
    expect(backoffDelay(full, 2, Number.NaN)).toBe(0);
    expect(backoffDelay(full, 2, 7)).toBeLessThanOrEqual(400);
    expect(backoffDelay(full, 2, -3)).toBe(0);
    expect(backoffDelay({ ...plain, jitter: () => Number.POSITIVE_INFINITY }, 2, 0.5)).toBe(400);
    expect(backoffDelay({ ...plain, jitter: () => -50 }, 2, 0.5)).toBe(0);
  });
});

describe('createBackoff', () => {
  it('keeps the default for an option given as undefined', () => {
    expect(createBackoff({ initialMs: undefined } as unknown as Partial<typeof DEFAULT_BACKOFF>).initialMs).toBe(DEFAULT_BACKOFF.initialMs);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(createBackoff())).toBe(true);
  });

  it.each([
    ['initialMs', { initialMs: -1 }],
    ['maxMs', { initialMs: 500, maxMs: 100 }],
    ['factor', { factor: 0.5 }],
    ['maxAttempts', { maxAttempts: 1.5 }],
    ['maxTotalDelayMs', { maxTotalDelayMs: Number.POSITIVE_INFINITY }],
  ])('rejects a bad %s with INVALID_OPTION', (option, overrides) => {
    try {
      createBackoff(overrides);
      expect.unreachable();
    } catch (error) {
      expect(isResilienceError(error, 'INVALID_OPTION')).toBe(true);
      expect((error as Error).message).toContain(option);
    }
  });
});
