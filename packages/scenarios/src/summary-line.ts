import type { CorpusReport } from './report.ts';

/**
 * The one line a person reads after the report, the same in every runtime's sample: counts, and
 * the scenarios that failed.
 *
 * @example
 * summaryLine(report); // 'node: 27 scenarios, 27 passed, 0 failed'
 */
export function summaryLine(report: CorpusReport): string {
  const failed = report.scenarios.filter((s) => !s.ok).map((s) => s.name);
  const declared = report.scenarios.filter((s) => s.difference).length;
  const n = report.scenarios.length;
  return `${report.runtime}: ${n} scenario${n === 1 ? '' : 's'}, ${report.passed} passed, ${report.failed} failed`
    + `${declared > 0 ? `, ${declared} with a declared difference` : ''}${failed.length > 0 ? ` (${failed.join(', ')})` : ''}`
    + `${report.scenarios.length === 0 ? ': no scenario at all' : ''}`;
}
