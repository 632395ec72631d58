import { CHECK_TITLES } from './checks.ts';
import type { CheckReport } from './run-check.ts';

const escape = (text: string) => text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * The report as JUnit XML for CI: one test suite for the client, one test case per check of each
 * scenario (`classname` the scenario), a failed check as `<failure>` with why and the fix (`type`
 * required, optional or varies), a skipped scenario
 * as one `<skipped>` case.
 *
 * @example
 * writeFileSync('churn-check.xml', renderJunit(report));
 */
export function renderJunit(report: CheckReport): string {
  const cases = report.scenarios.flatMap((s) => {
    const seconds = (s.ms / 1000).toFixed(3);
    if (s.status === 'skipped') return [`    <testcase classname="churn.${escape(s.name)}" name="${escape(s.name)}" time="${seconds}"><skipped message="${escape(s.skipped ?? '')}"/></testcase>`];
    return s.checks.map((c) => {
      const name = `${escape(s.name)}: ${escape(CHECK_TITLES[c.name])}`;
      const failure = c.passed ? '' : `<failure message="${escape(c.detail)}${c.hint ? ` (fix: ${escape(c.hint)})` : ''}" type="${c.varies ? 'varies' : c.required ? 'required' : 'optional'}"/>`;
      return `    <testcase classname="churn.${escape(s.name)}" name="${name}" time="${seconds}">${failure}</testcase>`;
    });
  });
  const failures = report.checks.total - report.checks.passed;
  const skipped = report.scenarios.length - report.scenariosRun;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mcp-chaos check" tests="${cases.length}" failures="${failures}" skipped="${skipped}" time="${(report.ms / 1000).toFixed(3)}">`,
    `  <testsuite name="churn check: ${escape(report.client)}" tests="${cases.length}" failures="${failures}" skipped="${skipped}" time="${(report.ms / 1000).toFixed(3)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
