import type { ServerReport } from './score-server.ts';

/**
 * The one line a server check ends with: required and optional checks passed of those run, and
 * how many were skipped.
 *
 * @example
 * serverSummaryLine(report); // 'server check: 9/10 required, 1/2 optional, 2 skipped'
 */
export function serverSummaryLine(report: ServerReport): string {
  const run = report.checks.filter((c) => c.status !== 'skipped');
  const count = (required: boolean) => {
    const of = run.filter((c) => c.required === required);
    return `${of.filter((c) => c.status === 'passed').length}/${of.length}`;
  };
  return `server check: ${count(true)} required, ${count(false)} optional${report.skipped ? `, ${report.skipped} skipped` : ''}`;
}

const MARK = { passed: '✓', failed: '✗', skipped: '–' } as const;

/**
 * The server check's report for people: a line per check (`✓` passed, `✗` failed, `–` skipped;
 * required or optional; the title when it passed, else why), and the summary line last.
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
    ...report.checks.map((c) => `  ${MARK[c.status]} ${c.name.padEnd(width)}  ${c.required ? 'required' : 'optional'}  ${
      c.status === 'passed' ? c.title : c.status === 'skipped' ? `skipped: ${c.detail}` : c.detail}`),
    serverSummaryLine(report),
  ].join('\n') + '\n';
}
