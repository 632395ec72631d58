import { describe, expect, it } from 'vitest';
import { judge, quantile, spreadOf } from './spread.ts';

describe('quantile', () => {
  it('interpolates linearly between order statistics, whatever the order of the sample', () => {
    expect(quantile([4, 1, 3, 2], 0.25)).toBe(1.75);
    expect(quantile([4, 1, 3, 2], 0.5)).toBe(2.5);
    expect(quantile([4, 1, 3, 2], 0.75)).toBe(3.25);
    expect(quantile([7], 0.75)).toBe(7);
    expect(quantile([1, 9], 0)).toBe(1);
    expect(quantile([1, 9], 1)).toBe(9);
  });

  it('refuses an empty sample and a p outside [0, 1]', () => {
    expect(() => quantile([], 0.5)).toThrow(RangeError);
    expect(() => quantile([1], 1.5)).toThrow(RangeError);
  });
});

describe('spreadOf', () => {
  it('gives the median, quartiles and extremes of per-round values, rounded', () => {
    expect(spreadOf([1.1, 1, 1.05, 1.2])).toEqual({ rounds: 4, median: 1.075, q1: 1.038, q3: 1.125, min: 1, max: 1.2 });
    expect(spreadOf([12.4, -3.6, 40.2], 0)).toEqual({ rounds: 3, median: 12, q1: 4, q3: 26, min: -4, max: 40 });
  });
});

describe('judge', () => {
  const spread = { rounds: 20, median: 1.04, q1: 1.02, q3: 1.06, min: 0.99, max: 1.1 };
  it('meets a target only when the whole interquartile range is within it, misses it only when the whole range is beyond', () => {
    expect(judge(spread, 1.06)).toBe('met');
    expect(judge(spread, 1.05)).toBe('unclear');
    expect(judge(spread, 1.02)).toBe('unclear');
    expect(judge(spread, 1.01)).toBe('missed');
  });
});
