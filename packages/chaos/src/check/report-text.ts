import { CHECK_TITLES, type CheckResult } from './checks.ts';
import type { RecoveryCost } from './recovery-cost.ts';
import type { CheckReport, ScenarioResult } from './run-check.ts';
import type { WireRecord } from './wire-tap.ts';

/**
 * The one line a run ends with: checks passed of all scored, scenarios passed of those run.
 *
 * @example
 * summaryLine(report); // 'churn check: 31/34 checks, 9/11 scenarios'
 */
export function summaryLine(report: CheckReport): string {
  const skipped = report.scenarios.length - report.scenariosRun;
  const varying = report.varying ? `, ${report.varying} varying` : '';
  return `churn check: ${report.checks.passed}/${report.checks.total} checks, ${report.scenariosPassed}/${report.scenariosRun} scenarios${skipped ? `, ${skipped} skipped` : ''}${varying}`;
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

const MARK = { passed: '✓', failed: '✗', skipped: '-', varies: '±' } as const;

/**
 * A request of the wire ledger and its answer, on one line: `request 5: POST tools/call echo
 * {"text":"c2"} [session sid-1a2b, connection 2] → 404 {"jsonrpc":"2.0",…}`.
 *
 * @example
 * wireLine(record); // 'request 5: POST tools/call … → 404 …'
 */
export function wireLine(r: WireRecord): string {
  const what = [r.httpMethod, r.rpcMethod, r.call && r.call.replace(/^\S+ /, '')].filter(Boolean).join(' ');
  const carried = [r.session && `session ${r.session}`, r.lastEventId && 'Last-Event-ID', r.token && `token ${r.token}`, `connection ${r.connection}`].filter(Boolean).join(', ');
  const answer = r.status === undefined ? 'no answer (still open)' : `${r.status}${r.broken ? ' (stream broken)' : ''}${r.retryAfter ? ` Retry-After: ${r.retryAfter}` : ''}${r.minted && r.rpcMethod === 'initialize' ? ` new session ${r.minted}` : ''}`;
  const body = r.body?.replace(/\s+/g, ' ').trim();
  return `request ${r.seq}: ${what}${carried ? ` [${carried}]` : ''} → ${answer}${body ? ` ${body.length > 120 ? `${body.slice(0, 120)}…` : body}` : ''}`;
}

function checkLines(c: CheckResult, wire: readonly WireRecord[]): string[] {
  const mark = c.varies ? '±' : c.passed ? '✓' : c.required ? '✗' : '⚠';
  const lines = [`      ${mark} ${CHECK_TITLES[c.name]} [${c.source}]: ${c.detail}`];
  if (c.passed) return lines;
  for (const seq of c.requests ?? []) {
    const record = wire.find((r) => r.seq === seq);
    if (record) lines.push(`          ${wireLine(record)}`);
  }
  if (c.hint) lines.push(`          fix: ${c.hint}`);
  return lines;
}

function scenarioLines(result: ScenarioResult, width: number): string[] {
  const passed = result.checks.filter((c) => c.passed).length;
  const runs = result.runs > 1 ? `  (${result.runs} runs)` : '';
  const head = `  ${MARK[result.status]} ${result.name.padEnd(width)}  ${result.status === 'skipped'
    ? `skipped: ${result.skipped}` : `${`${passed}/${result.checks.length} checks`.padEnd(12)}  ${costText(result.cost)}${runs}`}`.trimEnd();
  if (result.problem && result.runs === 1) return [head, `      ${result.problem}`];
  return [head, ...result.checks.flatMap((c) => checkLines(c, result.wire))];
}

/**
 * The report for people: a line per scenario (checks passed, recovery cost), each check under it
 * with what proved it (`✓`) or why it failed (`✗`; `⚠` optional; `±` varied run to run), a failed
 * one followed by the requests it rests on with their answers and the fix; the summary line last.
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
