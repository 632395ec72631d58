import type { CallExpectation, RuntimeName, Scenario, ScenarioExpectation } from './scenario.ts';

/** What a scenario must come to on one runtime: its own expectations, or those its file declares for that runtime. */
export interface RuntimePlan {
  readonly expect: ScenarioExpectation;
  /** The expectation of the call step at `index`. */
  stepExpect(index: number, own: CallExpectation): CallExpectation;
  /** The declared difference that applies, as the report names it. */
  readonly difference?: { readonly what: string; readonly why: string };
}

/**
 * The expectations of `scenario` on `runtime`: a declared difference that names the runtime
 * replaces the fields of `expect` and the step expectations it gives; everything else stays.
 *
 * @example
 * planFor(scenario, 'browser').difference; // { what: '…', why: '…' } when the file declares one
 */
export function planFor(scenario: Scenario, runtime: RuntimeName): RuntimePlan {
  const difference = scenario.differences.find((d) => d.runtimes.includes(runtime));
  if (!difference) return { expect: scenario.expect, stepExpect: (_, own) => own };
  return {
    expect: { ...scenario.expect, ...difference.expect },
    stepExpect: (index, own) => difference.steps?.[index] ?? own,
    difference: { what: difference.what, why: difference.why },
  };
}
