import { describe, expect, it } from 'vitest';
import { HEALTHY_PATH_GOALS, spreadGoal, spreadText } from './goal.ts';
import { overheadGoals, type OverheadSpreadSummary, type SpreadFigures } from './overhead-summary.ts';

const spread = (q1: number, median: number, q3: number) => ({ rounds: 20, median, q1, q3, min: q1 - 0.05, max: q3 + 0.05 });

describe('spreadGoal: a timing goal judged on the interquartile range of the rounds', () => {
  it('is met only when the upper quartile is within the target, missed when the lower quartile is beyond it, unclear between', () => {
    expect(spreadGoal('x', spread(1.01, 1.03, 1.05), 1.05, '×')).toMatchObject({ met: true, verdict: 'met', counted: false });
    expect(spreadGoal('x', spread(1.03, 1.04, 1.06), 1.05, '×')).toMatchObject({ met: false, verdict: 'unclear', counted: false });
    expect(spreadGoal('x', spread(1.06, 1.08, 1.1), 1.05, '×')).toMatchObject({ met: false, verdict: 'missed', counted: false });
  });

  it('says the target, and the median with the interval and extremes it was judged on', () => {
    const goal = spreadGoal('CPU', { rounds: 4, median: 12, q1: -3, q3: 30, min: -10, max: 41 }, 40, 'µs');
    expect(goal.goal).toBe('≤ +40 µs (upper quartile of the rounds)');
    expect(goal.measured).toBe('+12 µs (IQR -3 to +30 µs, range -10 to +41 µs, 4 rounds)');
    expect(spreadText(spread(1, 1.02, 1.04), ' ×')).toBe('1.02 × (IQR 1 to 1.04 ×, range 0.95 to 1.09 ×, 20 rounds)');
  });
});

describe('overheadGoals', () => {
  it('judges SSE and JSON answers against the healthy-path targets, one at a time, 32 at a time and CPU added', () => {
    const figures = (median: number, cpu: number): SpreadFigures => ({ median_ratio: spread(median, median, median), p99_ratio: spread(1, 1, 1), cpu_ratio: spread(1, 1, 1), added_cpu_us: spread(cpu, cpu, cpu) });
    const summary: OverheadSpreadSummary = {
      sse: { sequential: figures(1.03, -50), concurrent: figures(1.11, 0) },
      json: { sequential: figures(1.05, 41), concurrent: figures(1.1, 0) },
      sse_progress: { sequential: figures(9, 999), concurrent: figures(9, 999) }, // no goal: reported only
    };
    expect(overheadGoals(summary).map((g) => [g.name, g.verdict])).toEqual([
      ['overhead, median latency, one call at a time (SSE answers)', 'met'],
      ['overhead, median latency, 32 at a time (SSE answers)', 'missed'],
      ['overhead, CPU the engine adds to a call (SSE answers)', 'met'],
      ['overhead, median latency, one call at a time (JSON answers)', 'met'],
      ['overhead, median latency, 32 at a time (JSON answers)', 'met'],
      ['overhead, CPU the engine adds to a call (JSON answers)', 'missed'],
    ]);
    expect(HEALTHY_PATH_GOALS.json).toEqual({ medianRatio: 1.05, concurrentMedianRatio: 1.1, addedCpuMicros: 40 });
  });
});
