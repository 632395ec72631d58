import type { ScoreboardClient } from './clients.ts';
import type { CheckJson } from './run-check-process.ts';

/** One column of the scoreboard: a client and its report. */
export interface ScoreboardColumn {
  readonly client: ScoreboardClient;
  readonly report: CheckJson;
}

type Scenario = CheckJson['scenarios'][number];

const passedOf = (s: Scenario) => s.checks.filter((c) => c.passed).length;

/** A cell: `✓ 6/6 · 3 req`, `✗ 2/5: reinitialized, dead-id-dropped`, `– skipped`; optional checks failed in parentheses. */
function cell(s: Scenario | undefined): string {
  if (!s) return '?';
  if (s.status === 'skipped') return '– skipped';
  const mark = s.status === 'passed' ? '✓' : '✗';
  if (s.problem) return `${mark} 0/${s.checks.length}: ${s.problem.split(':')[0]}`;
  const failed = s.checks.filter((c) => !c.passed).map((c) => (c.required ? c.name : `(${c.name})`));
  const cost = s.cost?.recovered ? ` · ${s.cost.requests} req` : '';
  return `${mark} ${passedOf(s)}/${s.checks.length}${failed.length ? `: ${failed.join(', ')}` : ''}${cost}`;
}

/**
 * The scoreboard as Markdown: a row per scenario, a column per client; each cell the checks
 * passed, the failed ones by name, and the recovery cost in requests (from the first request
 * that met the fault to the answer); then the totals. Times are left out: they are the machine's.
 *
 * @example
 * process.stdout.write(renderScoreboard(columns));
 */
export function renderScoreboard(columns: readonly ScoreboardColumn[]): string {
  const names = columns[0]?.report.scenarios.map((s) => s.name) ?? [];
  const rows = names.map((name) => `| ${name} | ${columns.map((c) => cell(c.report.scenarios.find((s) => s.name === name))).join(' | ')} |`);
  const scenariosPassed = (r: CheckJson) => {
    const run = r.scenarios.filter((s) => s.status !== 'skipped');
    const skipped = r.scenarios.length - run.length;
    return `${run.filter((s) => s.status === 'passed').length}/${run.length}${skipped ? ` (${skipped} skipped)` : ''}`;
  };
  return [
    `| scenario | ${columns.map((c) => c.client.name).join(' | ')} |`,
    `|---|${columns.map(() => '---').join('|')}|`,
    ...rows,
    `| **checks passed** | ${columns.map((c) => `**${c.report.checks.passed}/${c.report.checks.total}**`).join(' | ')} |`,
    `| **scenarios passed** | ${columns.map((c) => `**${scenariosPassed(c.report)}**`).join(' | ')} |`,
  ].join('\n') + '\n';
}

/**
 * Where a client does worse than the plain client of its line: each scenario it scored lower
 * on, and the checks it failed there that the plain one passed.
 *
 * @example
 * worseThanPlain(columns); // ['mcp-remote, rate-limit-seconds: session-kept (SDK 1.x passes it)']
 */
export function worseThanPlain(columns: readonly ScoreboardColumn[]): string[] {
  return columns.flatMap(({ client, report }) => {
    const plain = columns.find((c) => c.client.name === client.plain)?.report;
    if (!plain) return [];
    return report.scenarios.flatMap((s) => {
      const theirs = plain.scenarios.find((p) => p.name === s.name);
      if (!theirs || s.status === 'skipped' || theirs.status === 'skipped' || passedOf(s) >= passedOf(theirs)) return [];
      const lost = s.checks.filter((c) => !c.passed && theirs.checks.some((t) => t.name === c.name && t.passed)).map((c) => c.name);
      return [`${client.name}, ${s.name}: ${lost.join(', ')} (${client.plain} passes ${lost.length === 1 ? 'it' : 'them'})`];
    });
  });
}
