import type { CheckResult } from './checks.ts';

/**
 * Merges the checks of one scenario run several times (`--repeat N`): a check that gave the same
 * verdict every time is that verdict (the first run's detail); one that did not is `varies`, not
 * passed, with how often it passed and the detail of a run it failed (the one to learn from).
 *
 * @example
 * mergeRuns([[{ name: 'one-initialize', passed: true, … }], [{ name: 'one-initialize', passed: false, … }]]);
 * // [{ name: 'one-initialize', passed: false, varies: { passed: 1, runs: 2 }, detail: 'varies: passed 1 of 2; …' }]
 */
export function mergeRuns(runs: readonly (readonly CheckResult[])[]): CheckResult[] {
  const [first = []] = runs;
  return first.map((check) => {
    const all = runs.map((run) => run.find((c) => c.name === check.name)).filter((c) => c !== undefined);
    const passed = all.filter((c) => c.passed).length;
    if (passed === 0 || passed === all.length) return check;
    const failedRun = all.find((c) => !c.passed)!;
    return { ...failedRun, passed: false, varies: { passed, runs: all.length }, detail: `varies: passed ${passed} of ${all.length}; failed: ${failedRun.detail}` };
  });
}
