import { describe, expect, it } from 'vitest';
import { percentile, ratio, summarize } from './latency-stats.ts';

describe('latency stats', () => {
  it('takes the nearest rank', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, unsorted
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile([7], 1)).toBe(7);
  });

  it('refuses what has no answer', () => {
    expect(() => percentile([], 50)).toThrow(RangeError);
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(() => ratio(1, 0)).toThrow(RangeError);
  });

  it('summarizes and rounds ratios', () => {
    expect(summarize([3, 1, 2])).toEqual({ n: 3, medianMs: 2, p99Ms: 3 });
    expect(ratio(2, 3)).toBe(0.667);
  });
});
