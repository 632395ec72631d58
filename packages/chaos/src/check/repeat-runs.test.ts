import { describe, expect, it } from 'vitest';
import type { CheckResult } from './checks.ts';
import { mergeRuns } from './repeat-runs.ts';

const check = (passed: boolean, detail: string): CheckResult => ({ name: 'one-initialize', passed, required: true, source: 'seed', detail });

describe('mergeRuns', () => {
  it('keeps a verdict that repeats, and marks one that differs as varying with a failing run\'s detail', () => {
    expect(mergeRuns([[check(true, 'a')], [check(true, 'b')]])).toEqual([check(true, 'a')]);
    expect(mergeRuns([[check(false, 'a')], [check(false, 'b')]])).toEqual([check(false, 'a')]);
    expect(mergeRuns([[check(true, 'a')], [check(false, '2 initialize requests')], [check(true, 'c')]])).toEqual([
      { ...check(false, 'varies: passed 2 of 3; failed: 2 initialize requests'), varies: { passed: 2, runs: 3 } },
    ]);
  });
});
