import type { ServerReport } from './score-server.ts';

const escape = (text: string) => text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * The server check's report as JUnit XML for CI: one test suite for the server, one test case per
 * check (`classname` `server.<check>`), a failed check as `<failure>` with why (`type` required,
 * should or optional), a skipped one as `<skipped>` with why.
 *
 * @example
 * writeFileSync('server-check.xml', renderServerJunit(report));
 */
export function renderServerJunit(report: ServerReport): string {
  const cases = report.checks.map((c) => {
    const body = c.status === 'failed' ? `<failure message="${escape(c.detail)}" type="${c.required ? 'required' : c.level}"/>`
      : c.status === 'skipped' ? `<skipped message="${escape(c.detail)}"/>` : '';
    return `    <testcase classname="server.${escape(c.name)}" name="${escape(c.name)}: ${escape(c.title)}" time="0">${body}</testcase>`;
  });
  const seconds = (report.ms / 1000).toFixed(3);
  const counts = `tests="${cases.length}" failures="${report.failed}" skipped="${report.skipped}" time="${seconds}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="mcp-chaos check --server" ${counts}>`,
    `  <testsuite name="server check: ${escape(report.server)}" ${counts}>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
