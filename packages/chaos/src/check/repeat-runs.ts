/** What merging needs of a check: a check's result, or its JSON in a `--json` report. */
export interface RunCheck {
  readonly name: string;
  readonly passed: boolean;
  readonly detail: string;
  readonly varies?: { readonly passed: number; readonly runs: number };
}

/**
 * Merges the checks of one scenario run several times (`--repeat N`, or a scoreboard's runs again): a check that gave the same
 * verdict every time is that verdict (the first run's detail); one that did not is `varies`, not
 * passed, with how often it passed and the detail of a run it failed (the one to learn from).
 *
 * @example
 * mergeRuns([[{ name: 'one-initialize', passed: true, … }], [{ name: 'one-initialize', passed: false, … }]]);
 * // [{ name: 'one-initialize', passed: false, varies: { passed: 1, runs: 2 }, detail: 'varies: passed 1 of 2; …' }]
 */
export function mergeRuns<C extends RunCheck>(runs: readonly (readonly C[])[]): C[] {
  const [first = []] = runs;
  return first.map((check) => {
    const all = runs.map((run) => run.find((c) => c.name === check.name)).filter((c) => c !== undefined);
    const passed = all.filter((c) => c.passed).length;
    if (passed === 0 || passed === all.length) return check;
    const failedRun = all.find((c) => !c.passed)!;
    return { ...failedRun, passed: false, varies: { passed, runs: all.length }, detail: `varies: passed ${passed} of ${all.length}; failed: ${failedRun.detail}` } as C;
  });
}
