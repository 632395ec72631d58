import { compareReports, type CorpusReport } from '@mcp-resilience/scenarios';

/** What one scenario came to on one runtime, measured against the reference runtime's report. */
export type ProofCell =
  | { readonly mark: 'pass' }
  | { readonly mark: 'declared'; readonly what: string }
  | { readonly mark: 'fail'; readonly detail: string };

export interface ProofRow {
  readonly scenario: string;
  /** One cell per runtime, in the order of {@link ProofTable.runtimes}. */
  readonly cells: readonly ProofCell[];
}

/** Scenario × runtime: the proof that every runtime came out as the reference did, or as a file declares. */
export interface ProofTable {
  /** The columns: each report's runtime, or the name given for it (`node26`: the Node sample on Node 26). */
  readonly runtimes: readonly string[];
  readonly rows: readonly ProofRow[];
  /** True when no cell failed and every runtime ran every scenario. */
  readonly passed: boolean;
}

/** The reference's own cell: it passes, or passes under a difference its file declares for it, or fails. */
function referenceCell(report: CorpusReport, scenario: string): ProofCell {
  const own = report.scenarios.find((s) => s.name === scenario);
  if (!own) return { mark: 'fail', detail: `not in the ${report.runtime} report` };
  if (!own.ok) return { mark: 'fail', detail: own.mismatches.join('; ') };
  return own.difference ? { mark: 'declared', what: own.difference.what } : { mark: 'pass' };
}

/** Another runtime's cell: equal to the reference's (and passed), differing only as declared, or a failure. */
function comparedCell(reference: CorpusReport, other: CorpusReport, scenario: string): ProofCell {
  const comparison = compareReports(reference, other);
  const undeclared = comparison.undeclared.find((u) => u.name === scenario);
  if (undeclared) return { mark: 'fail', detail: undeclared.detail };
  const declared = comparison.declared.find((d) => d.name === scenario);
  if (declared?.runtimes.includes(other.runtime)) return { mark: 'declared', what: declared.what };
  const own = other.scenarios.find((s) => s.name === scenario);
  return own?.ok ? { mark: 'pass' } : { mark: 'fail', detail: own ? own.mismatches.join('; ') : `not in the ${other.runtime} report` };
}

/**
 * The proof table of the corpus: the reference runtime's report (Node's) against each other
 * runtime's. A cell passes when the scenario passed there with a report equal to the
 * reference's, is `declared` when it came out otherwise exactly as its file declares for that
 * runtime, and fails otherwise (failed there, missing, or a difference nobody declared). The
 * columns are named by `names` (the reference's first) when given, else by each report's runtime:
 * two reports of one runtime (Node 20's and Node 26's) need names of their own.
 *
 * @example
 * const table = proofTable(nodeReport, [denoReport, workerdReport, browserReport]);
 * if (!table.passed) process.exitCode = 1;
 * proofTable(nodeReport, [node26Report], ['node', 'node26']).runtimes; // ['node', 'node26']
 */
export function proofTable(reference: CorpusReport, others: readonly CorpusReport[], names?: readonly string[]): ProofTable {
  const reports = [reference, ...others];
  const scenarios = [...new Set(reports.flatMap((r) => r.scenarios.map((s) => s.name)))].sort();
  const rows = scenarios.map((scenario) => ({
    scenario,
    cells: [referenceCell(reference, scenario), ...others.map((other) => comparedCell(reference, other, scenario))],
  }));
  if (names && names.length !== reports.length) throw new Error(`proofTable: ${names.length} names for ${reports.length} reports`);
  return { runtimes: names ?? reports.map((r) => r.runtime), rows, passed: rows.every((row) => row.cells.every((c) => c.mark !== 'fail')) };
}

const SYMBOL = { pass: '✓', fail: '✗' } as const;

/** A table cell's text: `✓`, `✗`, or `declared: what`. */
function cellText(cell: ProofCell): string {
  return cell.mark === 'declared' ? `declared: ${cell.what.replaceAll('|', '\\|')}` : SYMBOL[cell.mark];
}

/**
 * The table as Markdown (scenario × runtime, `✓`, `✗` or `declared: …`), each failure explained
 * under it.
 *
 * @example
 * process.stdout.write(renderProofTable(proofTable(node, [deno])));
 */
export function renderProofTable(table: ProofTable): string {
  const lines = [
    `| scenario | ${table.runtimes.join(' | ')} |`,
    `|---|${table.runtimes.map(() => ':-:').join('|')}|`,
    ...table.rows.map((row) => `| ${row.scenario} | ${row.cells.map(cellText).join(' | ')} |`),
  ];
  const failures = table.rows.flatMap((row) => row.cells.flatMap((cell, i) =>
    cell.mark === 'fail' ? [`- ✗ ${row.scenario} on ${table.runtimes[i]}: ${cell.detail}`] : []));
  return `${[...lines, ...(failures.length ? ['', ...failures] : [])].join('\n')}\n`;
}
