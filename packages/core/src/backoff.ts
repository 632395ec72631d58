import { atLeast, checkedOptions, COUNT } from './check-option.ts';
import { clamp } from './values.ts';

/**
 * Spreads a delay: takes the computed delay and a random number in [0, 1).
 *
 * @example
 * const tenPercent: Jitter = (delayMs, random) => delayMs * (0.9 + 0.1 * random);
 * createBackoff({ jitter: tenPercent });
 */
export type Jitter = (delayMs: number, random: number) => number;

/**
 * The whole delay, uniformly at random (spreads a fleet the most).
 *
 * @example
 * fullJitter(1000, 0.25) // 250
 */
export const fullJitter: Jitter = (delayMs, random) => delayMs * random;
/**
 * Half the delay fixed, half at random (never retries at once).
 *
 * @example
 * equalJitter(1000, 0.25) // 625
 */
export const equalJitter: Jitter = (delayMs, random) => delayMs / 2 + (delayMs / 2) * random;
/**
 * No spread: for deterministic tests.
 *
 * @example
 * createBackoff({ jitter: noJitter }); // delays 200, 400, 800… exactly
 */
export const noJitter: Jitter = (delayMs) => delayMs;

/**
 * Exponential backoff with jitter, bounded in attempts and in total delay. Immutable.
 *
 * @example
 * const backoff: Backoff = createBackoff({ maxAttempts: 2 });
 * backoffDelay(backoff, 1, 0.5) // 300 (400 ms, equal jitter)
 */
export interface Backoff {
  readonly initialMs: number;
  readonly maxMs: number;
  readonly factor: number;
  /** Retries allowed for one call, after its first attempt. */
  readonly maxAttempts: number;
  /** The most one call may spend waiting, over all its retries. */
  readonly maxTotalDelayMs: number;
  readonly jitter: Jitter;
}

export const DEFAULT_BACKOFF: Backoff = {
  initialMs: 200, maxMs: 5_000, factor: 2, maxAttempts: 4, maxTotalDelayMs: 30_000, jitter: equalJitter,
};

/** A random number forced into [0, 1): a broken source (NaN, negative, 7) cannot make a wait negative, NaN or longer than its bound. */
export function unitRandom(random: number): number {
  return Number.isFinite(random) ? clamp(random, 0, 1 - Number.EPSILON) : 0;
}

/**
 * A backoff from defaults and overrides, checked: throws `INVALID_OPTION` on a negative,
 * non-finite or inconsistent value.
 *
 * @example
 * const backoff = createBackoff({ initialMs: 100, jitter: fullJitter });
 */
export function createBackoff(overrides: Partial<Backoff> = {}): Backoff {
  return checkedOptions('backoff.', DEFAULT_BACKOFF, overrides, {
    initialMs: atLeast(0),
    maxMs: [(n, b) => Number.isFinite(n) && n >= b.initialMs, 'a finite number >= initialMs'],
    factor: atLeast(1),
    maxAttempts: COUNT,
    maxTotalDelayMs: atLeast(0),
    jitter: [(f) => typeof f === 'function', 'a function'],
  });
}

/**
 * The delay before retry number `attempt` (0 for the first retry): `initialMs × factor^attempt`,
 * capped at `maxMs`, then jittered, rounded to whole ms and kept within [0, maxMs]. A random
 * number outside [0, 1) is clamped into it.
 *
 * @example
 * backoffDelay(DEFAULT_BACKOFF, 2, 0.5) // 600: base 800, half fixed, half at random
 */
export function backoffDelay(backoff: Pick<Backoff, 'initialMs' | 'maxMs' | 'factor' | 'jitter'>, attempt: number, random: number): number {
  const grown = backoff.initialMs * backoff.factor ** Math.max(0, attempt);
  // 0 × Infinity (a zero initial delay, a huge attempt) is NaN: that delay is 0.
  const base = Number.isNaN(grown) ? 0 : Math.min(backoff.maxMs, grown);
  const jittered = backoff.jitter(base, unitRandom(random));
  // Whole milliseconds, rounded before the clamp so that rounding cannot overshoot maxMs.
  const ms = Math.round(Number.isFinite(jittered) ? jittered : base);
  return clamp(ms, 0, Math.floor(backoff.maxMs));
}
