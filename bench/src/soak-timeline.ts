/** One slice of a soak's time, for a chart. */
export interface TimelineBucket {
  /** Start of the slice, in ms since the calls started. */
  readonly startMs: number;
  /** Calls that settled in the slice (succeeded, failed or hung). */
  readonly completed: number;
  /** Calls of the slice that failed (or hung). */
  readonly errors: number;
  /** Faults applied in the slice, by kind. */
  readonly faults: Readonly<Record<string, number>>;
  /** Sessions replaced by the engines in the slice. */
  readonly reinitializations: number;
}

/** What the timeline is made of, each stamped in ms since the calls started. */
export interface TimelineInput {
  readonly calls: readonly { readonly endMs: number; readonly failed: boolean }[];
  readonly faults: readonly { readonly atMs: number; readonly kind: string }[];
  readonly reinitializations: readonly number[];
}

/**
 * The slice a moment falls in: slices are `bucketMs` long from 0; a moment before 0 falls in
 * the first and one at or after the end in the last (of `count`).
 *
 * @example
 * bucketOf(740, 250, 10) // 2
 */
export function bucketOf(atMs: number, bucketMs: number, count: number): number {
  const index = Math.floor(atMs / bucketMs);
  return Math.min(Math.max(Number.isFinite(index) ? index : 0, 0), count - 1);
}

/**
 * Cuts `durationMs` into slices of `bucketMs` (at least one) and counts in each the calls that
 * settled, those that failed, the faults applied by kind, and the re-initializations.
 *
 * @example
 * buildTimeline({ calls: [{ endMs: 10, failed: false }], faults: [{ atMs: 300, kind: 'restart' }], reinitializations: [310] }, 250, 500);
 * // [{ startMs: 0, completed: 1, errors: 0, faults: {}, reinitializations: 0 },
 * //  { startMs: 250, completed: 0, errors: 0, faults: { restart: 1 }, reinitializations: 1 }]
 */
export function buildTimeline(input: TimelineInput, bucketMs: number, durationMs: number): TimelineBucket[] {
  if (!(bucketMs > 0)) throw new RangeError('bucketMs must be > 0');
  const count = Math.max(1, Math.ceil(durationMs / bucketMs));
  const buckets = Array.from({ length: count }, (_, i) => ({
    startMs: i * bucketMs, completed: 0, errors: 0, faults: {} as Record<string, number>, reinitializations: 0,
  }));
  const at = (ms: number) => buckets[bucketOf(ms, bucketMs, count)]!;
  for (const call of input.calls) {
    const bucket = at(call.endMs);
    bucket.completed += 1;
    if (call.failed) bucket.errors += 1;
  }
  for (const fault of input.faults) {
    const { faults } = at(fault.atMs);
    faults[fault.kind] = (faults[fault.kind] ?? 0) + 1;
  }
  for (const ms of input.reinitializations) at(ms).reinitializations += 1;
  return buckets;
}

/**
 * Counts values by key.
 *
 * @example
 * countBy(['a', 'b', 'a'], (x) => x) // { a: 2, b: 1 }
 */
export function countBy<T>(items: Iterable<T>, key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) {
    const k = key(item);
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
}
