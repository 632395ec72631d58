import { callExpectation, fail, object, oneOf, record, text } from './parse-fields.ts';
import { parseExpectation } from './parse-expectation.ts';
import { RUNTIMES, type CallExpectation, type DeclaredDifference, type RuntimeName, type Step } from './scenario.ts';

/**
 * Reads a scenario's `differences`: each names its runtimes, says what differs and why, and
 * replaces expectations (`expect`, `steps` by index of a call step). A runtime named twice, a
 * difference that replaces nothing, or a step index that is not a call is refused.
 */
export function parseDifferences(value: unknown, where: string, steps: readonly Step[]): DeclaredDifference[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length === 0) fail(where, 'must be a non-empty list of declared differences');
  const named = new Set<RuntimeName>();
  return value.map((item, i): DeclaredDifference => {
    const at = `${where}[${i}]`;
    const raw = object(item, at, ['runtimes', 'what', 'why', 'expect', 'steps'], ['runtimes', 'what', 'why']);
    if (!Array.isArray(raw.runtimes) || raw.runtimes.length === 0) fail(`${at}.runtimes`, `must be a non-empty list of ${RUNTIMES.join(', ')}`);
    const runtimes = raw.runtimes.map((r, j) => oneOf(r, `${at}.runtimes[${j}]`, RUNTIMES));
    for (const runtime of runtimes) {
      if (named.has(runtime)) fail(`${at}.runtimes`, `${runtime} is already named by another difference: one difference per runtime`);
      named.add(runtime);
    }
    if (raw.expect === undefined && raw.steps === undefined) fail(at, 'must replace something: "expect", "steps" or both');
    return {
      runtimes,
      what: text(raw.what, `${at}.what`),
      why: text(raw.why, `${at}.why`),
      ...(raw.expect === undefined ? {} : { expect: parseExpectation(raw.expect, `${at}.expect`, true) }),
      ...(raw.steps === undefined ? {} : { steps: stepExpectations(raw.steps, `${at}.steps`, steps) }),
    };
  });
}

function stepExpectations(value: unknown, where: string, steps: readonly Step[]): Record<number, CallExpectation> {
  const raw = record(value, where);
  if (Object.keys(raw).length === 0) fail(where, 'must replace at least one step\'s expectation');
  const out: Record<number, CallExpectation> = {};
  for (const [key, expectation] of Object.entries(raw)) {
    const index = /^(0|[1-9]\d*)$/.test(key) ? Number(key) : -1;
    const step = steps[index];
    if (step === undefined) fail(`${where}.${key}`, `must be the index of a step (0 to ${steps.length - 1})`);
    if (step.kind !== 'call' && step.kind !== 'concurrent' && step.kind !== 'task-call') fail(`${where}.${key}`, `steps[${index}] is a ${step.kind} step: only a call's expectation can differ`);
    out[index] = callExpectation(expectation, `${where}.${key}`);
  }
  return out;
}
