import { mergeRuns } from '@mcp-resilience/chaos';
import { checkClient, type ClientCheck } from './check-client.ts';
import type { ScoreboardClient } from './clients.ts';
import type { CheckJson } from './run-check-process.ts';
import { cell } from './scoreboard-table.ts';

type Scenario = CheckJson['scenarios'][number];

/**
 * The cells of the scoreboard table in `markdown` (docs/churn-check.md), by client and scenario:
 * the table whose header names exactly these clients, in this order; empty when there is none.
 *
 * @example
 * committedCells(readFileSync('docs/churn-check.md', 'utf8'), ['SDK 1.x']).get('SDK 1.x')?.get('restart'); // '✗ 3/6: …'
 */
export function committedCells(markdown: string, clients: readonly string[]): Map<string, Map<string, string>> {
  const cells = new Map(clients.map((name) => [name, new Map<string, string>()]));
  const lines = markdown.split('\n');
  const header = lines.indexOf(`| scenario | ${clients.join(' | ')} |`);
  if (header < 0) return cells;
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('| ') || line.startsWith('| **')) break;
    const [scenario = '', ...row] = line.slice(2, -2).split(' | ');
    row.forEach((text, i) => cells.get(clients[i] ?? '')?.set(scenario, text));
  }
  return cells;
}

/**
 * One scenario of a client run several times (each run a check process of its own), merged as
 * `mcp-chaos check --repeat` merges its runs (`mergeRuns`): a check whose verdict differed is `varies` (not
 * passed, with how often it passed and the detail of a run it failed); the scenario `failed` on a
 * steady required failure, else `varies` on a varying required check; the cost is the first run's.
 * Runs that could not be scored (a `problem`) are left out.
 *
 * @example
 * mergeScenarioRuns([first, again]).checks.find((c) => c.name === 'one-initialize')?.varies; // { passed: 1, runs: 2 }
 */
export function mergeScenarioRuns(runs: readonly Scenario[]): Scenario {
  const scored = runs.filter((r) => !r.problem && r.status !== 'skipped');
  const [first] = scored;
  if (!first || scored.length === 1) return runs[0]!;
  const checks = mergeRuns(scored.map((run) => run.checks));
  const status = checks.some((c) => c.required && !c.passed && !c.varies) ? 'failed' : checks.some((c) => c.required && c.varies) ? 'varies' : 'passed';
  return { ...first, status, checks };
}

/** A scenario of a client not of ours, seen over several runs: the merge, and the run the committed table shows, if any run does. */
export interface SettledScenario {
  /** Every run merged: what varied is `varies`, whatever check it landed on. */
  readonly merged: Scenario;
  /** The run (or the merge) whose cell is the committed table's, if one is. */
  readonly asCommitted?: Scenario;
  /** The checks seen to vary, declared or not. */
  readonly varied: readonly string[];
}

/**
 * Settles a scenario whose cell differed from the committed one: its runs merged, and which of
 * them (each run, or the merge) the committed cell shows. A committed cell that no run shows is a
 * change the table must be told of; one that a run shows, while another run differs, is a race.
 *
 * @example
 * settleScenario(client, [first, ...again], '✗ 3/6: reinitialized, one-initialize, calls-answered');
 */
export function settleScenario(client: ScoreboardClient, runs: readonly Scenario[], committed: string): SettledScenario {
  const merged = mergeScenarioRuns(runs);
  const asCommitted = [merged, ...runs].find((run) => cell(client, run) === committed);
  const varied = merged.checks.filter((c) => c.varies).map((c) => c.name);
  return { merged, ...(asCommitted ? { asCommitted } : {}), varied };
}

/** How many more runs a scenario gets whose cell differed from the committed table. */
const RACE_RUNS = 3;

/** The scoreboard's runs with each differing cell settled over more runs: merged, as committed, and what was seen. */
export interface SettledRuns {
  /** Each client's report, a differing scenario's runs merged (what varied is `varies`). */
  readonly merged: readonly ClientCheck[];
  /** Each client's report, a differing scenario as the run the committed table shows (the merge where none does). */
  readonly asCommitted: readonly ClientCheck[];
  /** For the log: each differing scenario, what varied over its runs, and whether a run showed the committed cell. */
  readonly seen: readonly string[];
}

/**
 * Runs again, {@link RACE_RUNS} times, each scenario on which a client not of ours got a cell other
 * than the committed table's, whichever check made the difference: a check whose verdict then
 * differs from run to run is recorded as varying, declared or not, so that a third-party client's
 * race never decides a test; a difference that every run repeats stays one. Ours are not run again.
 *
 * @example
 * const { merged, asCommitted, seen } = await settleDifferences(runs, committedCells(doc, names));
 */
export async function settleDifferences(runs: readonly ClientCheck[], committed: Map<string, Map<string, string>>, env: Readonly<Record<string, string>> = {}): Promise<SettledRuns> {
  const merged: ClientCheck[] = [];
  const asCommitted: ClientCheck[] = [];
  const seen: string[] = [];
  for (const run of runs) {
    const cells = committed.get(run.client.name);
    const differing = run.client.ours || !cells ? [] : run.report.scenarios.filter((s) => !s.problem && cells.has(s.name) && cell(run.client, s) !== cells.get(s.name));
    if (differing.length === 0) {
      merged.push(run);
      asCommitted.push(run);
      continue;
    }
    const again = await Promise.all(Array.from({ length: RACE_RUNS }, () => checkClient(run.client, { env, scenarios: differing.map((s) => s.name) })));
    const settled = new Map(differing.map((s) => {
      const runsOf = [s, ...again.flatMap((a) => a.report.scenarios.filter((x) => x.name === s.name))];
      const result = settleScenario(run.client, runsOf, cells!.get(s.name)!);
      seen.push(`${run.client.name}, ${s.name}: ${result.varied.length ? `varied over ${runsOf.length} runs: ${result.varied.join(', ')}` : `the same in ${runsOf.length} runs`}; ${result.asCommitted ? 'a run showed the committed cell' : 'no run showed the committed cell'}`);
      return [s.name, result] as const;
    }));
    const withScenarios = (pick: (s: SettledScenario) => CheckJson['scenarios'][number]) =>
      ({ ...run, report: { ...run.report, scenarios: run.report.scenarios.map((s) => (settled.has(s.name) ? pick(settled.get(s.name)!) : s)) } });
    merged.push(withScenarios((s) => s.merged));
    asCommitted.push(withScenarios((s) => s.asCommitted ?? s.merged));
  }
  return { merged, asCommitted, seen };
}
