import { SCENARIOS } from './catalogue.ts';
import { scoreChecks, type CheckResult } from './checks.ts';
import type { CallOutcome } from './outcome-lines.ts';
import { recoveryCost, type RecoveryCost } from './recovery-cost.ts';
import { mergeRuns } from './repeat-runs.ts';
import { runScenario, type RunOptions } from './run-scenario.ts';
import type { ChurnScenario } from './scenario.ts';
import type { WireRecord } from './wire-tap.ts';

/** One scenario's result: passed (every required check), failed, or skipped by the client. */
export interface ScenarioResult {
  readonly name: string;
  readonly title: string;
  readonly revision: string;
  /** `varies`: with `--repeat`, a required check's verdict differed run to run and no other required check failed. */
  readonly status: 'passed' | 'failed' | 'skipped' | 'varies';
  readonly checks: readonly CheckResult[];
  readonly cost?: RecoveryCost;
  readonly outcomes: readonly CallOutcome[];
  /** The wire ledger the checks were scored on. */
  readonly wire: readonly WireRecord[];
  /** Why the client failed the scenario before any check, or why it skipped it. */
  readonly problem?: string;
  readonly skipped?: string;
  /** How many times the scenario ran (`--repeat`); the outcomes, wire and cost are the first run's. */
  readonly runs: number;
  readonly ms: number;
}

/** The whole run for one client. */
export interface CheckReport {
  readonly client: string;
  readonly scenarios: readonly ScenarioResult[];
  readonly checks: { readonly passed: number; readonly total: number };
  readonly scenariosPassed: number;
  readonly scenariosRun: number;
  /** Required checks that failed (varying ones included): the run fails when there is one. */
  readonly requiredFailed: number;
  /** Checks whose verdict differed run to run (`--repeat`). */
  readonly varying: number;
  readonly ms: number;
}

/** What `runCheck` takes: the client, and optionally which scenarios, how many at once, and the caps. */
export interface CheckOptions extends RunOptions {
  readonly scenarios?: readonly ChurnScenario[];
  /** Scenarios run at once, each on its own server (default 4). */
  readonly concurrency?: number;
  /** Each scenario is run this many times, its checks compared (default 1). */
  readonly repeat?: number;
  /** The optional checks are required too (`--strict`). */
  readonly strict?: boolean;
  /** Told of each scenario as it ends. */
  readonly onScenario?: (result: ScenarioResult) => void;
}

async function scenarioResult(scenario: ChurnScenario, options: CheckOptions): Promise<ScenarioResult> {
  const started = performance.now();
  const runs = Math.max(1, options.repeat ?? 1);
  const evidence = await runScenario(scenario, options);
  const scored = [scoreChecks(scenario, evidence, options.strict)];
  // A skipped scenario is not run again: the client said it cannot speak it.
  for (let i = 1; i < runs && evidence.skipped === undefined; i++) scored.push(scoreChecks(scenario, await runScenario(scenario, options), options.strict));
  const checks = mergeRuns(scored);
  const cost = recoveryCost(scenario, evidence);
  const steadyFailure = checks.some((c) => c.required && !c.passed && !c.varies) || (evidence.problem !== undefined && scored.length === 1);
  const status = evidence.skipped !== undefined ? 'skipped' : steadyFailure ? 'failed' : checks.some((c) => c.required && c.varies) ? 'varies'
    : checks.every((c) => c.passed || !c.required) ? 'passed' : 'failed';
  return {
    name: scenario.name, title: scenario.title, revision: scenario.revision, status, checks, outcomes: evidence.outcomes, wire: evidence.wire,
    ...(cost ? { cost } : {}), ...(evidence.problem ? { problem: evidence.problem } : {}),
    ...(evidence.skipped !== undefined ? { skipped: evidence.skipped } : {}), runs: scored.length, ms: Math.round(performance.now() - started),
  };
}

/**
 * Runs the churn check on one client: every scenario (default: all of {@link SCENARIOS}) on a
 * chaos server of its own, `concurrency` at a time, each scored by its checks (`repeat` times,
 * a check whose verdict differs reported as varying). Reports come out
 * in the catalogue's order whatever order they finished in.
 *
 * @example
 * const report = await runCheck({ client: 'node my-client.mjs' });
 * console.log(summaryLine(report)); // churn check: 31/34 checks, 9/11 scenarios
 */
export async function runCheck(options: CheckOptions): Promise<CheckReport> {
  const started = performance.now();
  const scenarios = options.scenarios ?? SCENARIOS;
  const results: ScenarioResult[] = new Array(scenarios.length);
  let next = 0;
  const worker = async () => {
    while (next < scenarios.length) {
      const index = next++;
      results[index] = await scenarioResult(scenarios[index]!, options);
      options.onScenario?.(results[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, scenarios.length)) }, worker));
  const checks = results.flatMap((r) => r.checks);
  return {
    client: options.client, scenarios: results,
    checks: { passed: checks.filter((c) => c.passed).length, total: checks.length },
    scenariosPassed: results.filter((r) => r.status === 'passed').length,
    scenariosRun: results.filter((r) => r.status !== 'skipped').length,
    requiredFailed: checks.filter((c) => c.required && !c.passed).length,
    varying: checks.filter((c) => c.varies).length,
    ms: Math.round(performance.now() - started),
  };
}
