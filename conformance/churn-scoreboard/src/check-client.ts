import { clientCommand, type ScoreboardClient } from './clients.ts';
import { runCheckProcess, type CheckRun } from './run-check-process.ts';

/**
 * `mcp-chaos check` options of the scoreboard: its defaults (a call timeout of 15 s, a cap of 60 s,
 * what a correct client passes on a loaded machine), four scenarios at once.
 */
const CHECK_ARGS = ['--concurrency', '4'] as const;
/** Each client's check is stopped by its PID after this long. */
const CHECK_CAP_MS = 300_000;

/** One client's check, and the scenarios run a second time, each with what went wrong the first. */
export type ClientCheck = CheckRun & { readonly client: ScoreboardClient; readonly rerun: readonly string[] };

/** What {@link checkClient} may be told: the environment its client inherits, the scenarios to run (all by default), the command (the client's adapter by default). */
export interface CheckClientOptions {
  readonly env?: Readonly<Record<string, string>>;
  readonly scenarios?: readonly string[];
  readonly command?: string;
}

/**
 * Runs `mcp-chaos check` on one client. A scenario that a client not of ours could not be scored
 * on (it did not start, hung, crashed or printed garbage; seen once on a loaded CI machine) is run
 * once more, and that second run is scored. Ours get no second run: for them any problem is a defect.
 *
 * @example
 * const check = await checkClient(CLIENTS[0]);
 * check.rerun; // [] or ['busy-eviction (hung: still running after 30000 ms (killed))']
 */
export async function checkClient(client: ScoreboardClient, options: CheckClientOptions = {}): Promise<ClientCheck> {
  const { env = {}, scenarios = [], command = clientCommand(client) } = options;
  const check = (names: readonly string[]) => runCheckProcess(command, [...CHECK_ARGS, ...names.flatMap((name) => ['--scenario', name])], CHECK_CAP_MS, env);
  const run = await check(scenarios);
  const unscored = run.report.scenarios.filter((s) => s.problem);
  if (client.ours || unscored.length === 0) return { client, ...run, rerun: [] };
  const again = await check(unscored.map((s) => s.name));
  const merged = run.report.scenarios.map((s) => again.report.scenarios.find((a) => a.name === s.name) ?? s);
  return { client, ...run, report: { ...run.report, scenarios: merged }, rerun: unscored.map((s) => `${s.name} (${s.problem})`) };
}

/**
 * A check's line for the log: the client, its summary line, its time and any scenario run again.
 *
 * @example
 * checkLine(check); // 'SDK 1.x: churn check: 54/95 checks, 5/22 scenarios, 2 skipped (30.4 s)'
 */
export function checkLine(check: ClientCheck): string {
  return `${check.client.name}: ${check.summary} (${check.seconds.toFixed(1)} s)${check.rerun.length ? `; run again: ${check.rerun.join(', ')}` : ''}`;
}
