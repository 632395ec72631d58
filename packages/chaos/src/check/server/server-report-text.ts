import type { ServerReport } from './score-server.ts';
import { ruleLabel } from './server-catalogue.ts';

/**
 * The one line a server check ends with: the MUST, SHOULD and optional checks passed of those
 * run, and how many were skipped.
 *
 * @example
 * serverSummaryLine(report); // 'server check: 9/10 MUST, 1/2 SHOULD, 1/4 optional, 2 skipped'
 */
export function serverSummaryLine(report: ServerReport): string {
  const run = report.checks.filter((c) => c.status !== 'skipped');
  const count = (level: string) => {
    const of = run.filter((c) => c.level === level);
    return `${of.filter((c) => c.status === 'passed').length}/${of.length}`;
  };
  return `server check: ${count('must')} MUST, ${count('should')} SHOULD, ${count('optional')} optional${report.skipped ? `, ${report.skipped} skipped` : ''}`;
}

const MARK = { passed: '✓', failed: '✗', skipped: '–' } as const;

/**
 * The server check's report for people: a line per check (`✓` passed, `✗` failed, `–` skipped),
 * its rule (`MUST (MCP)`, `SHOULD (MCP)`, `optional (JSON-RPC)`, …) and its title, and under it
 * what proved it, why it failed or why it was skipped; the summary line last.
 *
 * @example
 * process.stdout.write(renderServerText(report));
 */
export function renderServerText(report: ServerReport): string {
  const width = Math.max(...report.checks.map((c) => c.name.length));
  const about = [report.revision, report.work && `work: ${report.work}`, `${(report.ms / 1000).toFixed(1)} s`].filter(Boolean).join(', ');
  return [
    `mcp-chaos check --server: ${report.server} (${about})`,
    ...(report.problem ? [`  ${report.problem}`] : []),
    ...report.checks.flatMap((c) => [
      `  ${MARK[c.status]} ${c.name.padEnd(width)}  ${ruleLabel(c.level, c.source).padEnd(19)} ${c.title}`,
      `      ${c.status === 'skipped' ? `skipped: ${c.detail}` : c.detail}`,
    ]),
    serverSummaryLine(report),
  ].join('\n') + '\n';
}
