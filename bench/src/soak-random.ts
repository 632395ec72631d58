/** A seeded source of random numbers: the same seed draws the same sequence, so a soak reproduces. */
export interface Rng {
  /** A number in [0, 1). */
  next(): number;
  /** An integer from `min` to `max`, both included. */
  int(min: number, max: number): number;
  /** One of `items` (not empty). */
  pick<T>(items: readonly T[]): T;
  /** A shuffled copy of `items`. */
  shuffle<T>(items: readonly T[]): T[];
}

/**
 * A small seeded generator (mulberry32): fast, 32-bit state, good enough to draw schedules
 * and workloads. Not for anything secret.
 *
 * @example
 * const rng = createRng(42);
 * rng.int(1, 6); // the same number on every run with seed 42
 */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[int(0, items.length - 1)] as T;
    },
    shuffle<T>(items: readonly T[]): T[] {
      const out = [...items];
      for (let i = out.length - 1; i > 0; i--) {
        const j = int(0, i);
        [out[i], out[j]] = [out[j] as T, out[i] as T];
      }
      return out;
    },
  };
}

/**
 * A seed for one part of a soak (the schedule, a client's workload, a client's jitter),
 * derived from the soak's seed so that parts do not share a sequence.
 *
 * @example
 * createRng(deriveSeed(seed, 'client', 2));
 */
export function deriveSeed(seed: number, part: string, index = 0): number {
  let hash = (seed ^ 0x9e3779b9) >>> 0;
  for (const char of `${part}#${index}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash;
}
