import { CHECK_TITLES } from './checks.ts';
import type { RecoveryCost } from './recovery-cost.ts';
import type { CheckReport, ScenarioResult } from './run-check.ts';

/**
 * The one line a run ends with: checks passed of all scored, scenarios passed of those run.
 *
 * @example
 * summaryLine(report); // 'churn check: 31/34 checks, 9/11 scenarios'
 */
export function summaryLine(report: CheckReport): string {
  const skipped = report.scenarios.length - report.scenariosRun;
  return `churn check: ${report.checks.passed}/${report.checks.total} checks, ${report.scenariosPassed}/${report.scenariosRun} scenarios${skipped ? `, ${skipped} skipped` : ''}`;
}

/**
 * A recovery cost in words: `3 requests, 14 ms`, or `not recovered`.
 *
 * @example
 * costText({ recovered: true, requests: 3, ms: 14 }); // '3 requests, 14 ms'
 */
export function costText(cost: RecoveryCost | undefined): string {
  if (!cost) return '';
  return cost.recovered ? `${cost.requests} request${cost.requests === 1 ? '' : 's'}, ${cost.ms} ms` : 'not recovered';
}

const MARK = { passed: '✓', failed: '✗', skipped: '-' } as const;

function scenarioLines(result: ScenarioResult, width: number): string[] {
  const passed = result.checks.filter((c) => c.passed).length;
  const head = `  ${MARK[result.status]} ${result.name.padEnd(width)}  ${result.status === 'skipped'
    ? `skipped: ${result.skipped}` : `${`${passed}/${result.checks.length} checks`.padEnd(12)}  ${costText(result.cost)}`}`;
  if (result.problem) return [head, `      ${result.problem}`];
  return [head, ...result.checks.filter((c) => !c.passed).map((c) => `      ${c.required ? '✗' : '⚠'} ${CHECK_TITLES[c.name]}: ${c.detail}`)];
}

/**
 * The report for people: a line per scenario (checks passed, recovery cost), each failed check
 * under it with why (`⚠`: optional), and the summary line last.
 *
 * @example
 * process.stdout.write(renderText(report));
 */
export function renderText(report: CheckReport): string {
  const width = Math.max(...report.scenarios.map((s) => s.name.length));
  return [
    `mcp-chaos check: ${report.client} (${(report.ms / 1000).toFixed(1)} s)`,
    ...report.scenarios.flatMap((s) => scenarioLines(s, width)),
    summaryLine(report),
  ].join('\n') + '\n';
}
