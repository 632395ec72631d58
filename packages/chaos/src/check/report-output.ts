import { writeFileSync } from 'node:fs';

/** How one kind of report (the client check's, the server check's) is written out. */
export interface ReportForms<R> {
  readonly text: (report: R) => string;
  readonly junit: (report: R) => string;
  readonly summary: (report: R) => string;
}

/**
 * Writes a check's report as the command line asked (`--junit FILE` also; `--json` on stdout with
 * the summary line on stderr; otherwise the text), and returns the exit status: 1 when a required
 * check failed, else 0. Both modes of `mcp-chaos check` end here.
 *
 * @example
 * return writeReport(await runCheck(options), { json, junit }, { text: renderText, junit: renderJunit, summary: summaryLine });
 */
export function writeReport<R extends { readonly requiredFailed: number }>(
  report: R, { json, junit }: { readonly json: boolean; readonly junit?: string | undefined }, forms: ReportForms<R>,
): 0 | 1 {
  if (junit) writeFileSync(junit, forms.junit(report));
  if (json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    process.stderr.write(`${forms.summary(report)}\n`);
  } else {
    process.stdout.write(forms.text(report));
  }
  return report.requiredFailed > 0 ? 1 : 0;
}
