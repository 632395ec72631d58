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
  const varies = (c: ScoreboardColumn, name: string) => c.client.varies?.includes(name) === true;
  const rows = names.map((name) => `| ${name} | ${columns.map((c) => (varies(c, name) ? 'varies' : cell(c.report.scenarios.find((s) => s.name === name)))).join(' | ')} |`);
  // Totals over the scenarios whose score repeats; `+N varies` says how many are left out.
  const steady = (c: ScoreboardColumn) => c.report.scenarios.filter((s) => !varies(c, s.name));
  const left = (c: ScoreboardColumn) => (c.client.varies?.length ? ` + ${c.client.varies.length} varies` : '');
  const checksPassed = (c: ScoreboardColumn) => {
    const checks = steady(c).flatMap((s) => s.checks);
    return `${checks.filter((k) => k.passed).length}/${checks.length}${left(c)}`;
  };
  const scenariosPassed = (c: ScoreboardColumn) => {
    const run = steady(c).filter((s) => s.status !== 'skipped');
    const skipped = c.report.scenarios.length - c.report.scenarios.filter((s) => s.status !== 'skipped').length;
    return `${run.filter((s) => s.status === 'passed').length}/${run.length}${skipped ? ` (${skipped} skipped)` : ''}${left(c)}`;
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
 * on, and the checks it failed there that the plain one passed.
 *
 * @example
 * worseThanPlain(columns); // ['mcp-remote, rate-limit-seconds: session-kept (SDK 1.x passes it)']
 */
export function worseThanPlain(columns: readonly ScoreboardColumn[]): string[] {
  return columns.flatMap(({ client, report }) => {
    const plain = columns.find((c) => c.client.name === client.plain)?.report;
    if (!plain) return [];
    return report.scenarios.filter((s) => !client.varies?.includes(s.name)).flatMap((s) => {
      const theirs = plain.scenarios.find((p) => p.name === s.name);
      if (!theirs || s.status === 'skipped' || theirs.status === 'skipped' || passedOf(s) >= passedOf(theirs)) return [];
      const lost = s.checks.filter((c) => !c.passed && theirs.checks.some((t) => t.name === c.name && t.passed)).map((c) => c.name);
      return [`${client.name}, ${s.name}: ${lost.join(', ')} (${client.plain} passes ${lost.length === 1 ? 'it' : 'them'})`];
    });
  });
}
