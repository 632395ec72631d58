import { variesOf, type ScoreboardClient } from './clients.ts';
import type { CheckJson } from './run-check-process.ts';

/** One column of the scoreboard: a client and its report. */
export interface ScoreboardColumn {
  readonly client: ScoreboardClient;
  readonly report: CheckJson;
}

type Scenario = CheckJson['scenarios'][number];
type Check = Scenario['checks'][number];

const passedOf = (checks: readonly Check[]) => checks.filter((c) => c.passed).length;

/** A scenario's checks as the client's column counts them: those that repeat run to run, and those that vary (declared, or seen to by `--repeat`). */
function split(client: ScoreboardClient, s: Scenario): { steady: readonly Check[]; varying: readonly Check[] } {
  const declared = variesOf(client, s.name);
  const varies = (c: Check) => declared.includes(c.name) || c.varies !== undefined;
  return { steady: s.checks.filter((c) => !varies(c)), varying: s.checks.filter(varies) };
}

/**
 * The scenario's status as it repeats: failed when a check that repeats failed (a required one),
 * as reported when no varying check is required, and undefined when it turns on a varying check.
 */
function steadyStatus(client: ScoreboardClient, s: Scenario): 'passed' | 'failed' | 'skipped' | undefined {
  if (s.status === 'skipped' || s.problem) return s.status === 'varies' ? undefined : s.status;
  const { steady, varying } = split(client, s);
  if (steady.some((c) => c.required && !c.passed)) return 'failed';
  return varying.some((c) => c.required) ? undefined : s.status === 'varies' ? 'passed' : s.status;
}

/**
 * A cell: `✓ 6/6 · 3 req`, `✗ 2/5: reinitialized, dead-id-dropped`, `– skipped`; optional checks
 * failed in parentheses; the checks the client declares varying named after `varies:`, out of the
 * count (`✗ 4/5: calls-answered · varies: one-initialize`); `±` when the scenario's own verdict turns on one of them.
 *
 * @example
 * cell(CLIENTS[0], report.scenarios[0]); // '✗ 3/6: reinitialized, one-initialize, calls-answered'
 */
export function cell(client: ScoreboardClient, s: Scenario | undefined): string {
  if (!s) return '?';
  if (s.status === 'skipped') return '– skipped';
  const status = steadyStatus(client, s);
  const mark = status === undefined ? '±' : status === 'passed' ? '✓' : '✗';
  if (s.problem) return `${mark} 0/${s.checks.length}: ${s.problem.split(':')[0]}`;
  const { steady, varying } = split(client, s);
  const failed = steady.filter((c) => !c.passed).map((c) => (c.required ? c.name : `(${c.name})`));
  const cost = s.cost?.recovered ? ` · ${s.cost.requests} req` : '';
  const varies = varying.length ? ` · varies: ${varying.map((c) => c.name).join(', ')}` : '';
  return `${mark} ${passedOf(steady)}/${steady.length}${failed.length ? `: ${failed.join(', ')}` : ''}${cost}${varies}`;
}

/**
 * The scoreboard as Markdown: a row per scenario, a column per client; each cell the checks
 * passed, the failed ones by name, and the recovery cost in requests (from the first request
 * that met the fault to the answer); then the totals. Times are left out: they are the machine's.
 * A check the client declares varying is named as such and left out of the counts, and the
 * totals say how many were (`+N varies`); every other check is counted as seen.
 *
 * @example
 * process.stdout.write(renderScoreboard(columns));
 */
export function renderScoreboard(columns: readonly ScoreboardColumn[]): string {
  const names = columns[0]?.report.scenarios.map((s) => s.name) ?? [];
  const rows = names.map((name) => `| ${name} | ${columns.map((c) => cell(c.client, c.report.scenarios.find((s) => s.name === name))).join(' | ')} |`);
  const left = (n: number) => (n ? ` + ${n} varies` : '');
  const checksPassed = ({ client, report }: ScoreboardColumn) => {
    const checks = report.scenarios.map((s) => split(client, s));
    const steady = checks.flatMap((c) => c.steady);
    return `${passedOf(steady)}/${steady.length}${left(checks.flatMap((c) => c.varying).length)}`;
  };
  const scenariosPassed = ({ client, report }: ScoreboardColumn) => {
    const run = report.scenarios.filter((s) => s.status !== 'skipped').map((s) => steadyStatus(client, s));
    const steady = run.filter((status) => status !== undefined);
    const skipped = report.scenarios.length - run.length;
    return `${steady.filter((status) => status === 'passed').length}/${steady.length}${skipped ? ` (${skipped} skipped)` : ''}${left(run.length - steady.length)}`;
  };
  return [
    `| scenario | ${columns.map((c) => c.client.name).join(' | ')} |`,
    `|---|${columns.map(() => '---').join('|')}|`,
    ...rows,
    `| **checks passed** | ${columns.map((c) => `**${checksPassed(c)}**`).join(' | ')} |`,
    `| **scenarios passed** | ${columns.map((c) => `**${scenariosPassed(c)}**`).join(' | ')} |`,
  ].join('\n') + '\n';
}

/**
 * Where a client does worse than the plain client of its line: each scenario it scored lower
 * on, and the checks it failed there that the plain one passed. Only the checks that repeat for
 * both are compared.
 *
 * @example
 * worseThanPlain(columns); // ['mcp-remote, rate-limit-seconds: session-kept (SDK 1.x passes it)']
 */
export function worseThanPlain(columns: readonly ScoreboardColumn[]): string[] {
  return columns.flatMap(({ client, report }) => {
    const plain = columns.find((c) => c.client.name === client.plain);
    if (!plain) return [];
    return report.scenarios.flatMap((s) => {
      const theirs = plain.report.scenarios.find((p) => p.name === s.name);
      if (!theirs || s.status === 'skipped' || theirs.status === 'skipped') return [];
      const steady = split(plain.client, theirs).steady;
      const pairs = split(client, s).steady.flatMap((c) => steady.filter((t) => t.name === c.name).map((t) => ({ c, t })));
      if (pairs.filter(({ c }) => c.passed).length >= pairs.filter(({ t }) => t.passed).length) return [];
      const lost = pairs.filter(({ c, t }) => !c.passed && t.passed).map(({ c }) => c.name);
      return [`${client.name}, ${s.name}: ${lost.join(', ')} (${client.plain} passes ${lost.length === 1 ? 'it' : 'them'})`];
    });
  });
}
