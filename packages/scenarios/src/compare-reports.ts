import { deepEqual } from './deep-equal.ts';
import { scenarioReport, type CorpusReport, type ScenarioReport } from './report.ts';
import type { RuntimeName } from './scenario.ts';

/** How two runtimes' reports compare, scenario by scenario. */
export interface ReportComparison {
  /** True when every scenario is identical or differs only as its file declares. */
  readonly same: boolean;
  /** Scenarios whose reports are the same text. */
  readonly identical: readonly string[];
  /** Scenarios that differ as declared: both met their expectations, one or both under a declared difference. */
  readonly declared: readonly { readonly name: string; readonly runtimes: readonly RuntimeName[]; readonly what: string }[];
  /** Differences no file declares, or a scenario that failed or is missing on one side: each is a failure. */
  readonly undeclared: readonly { readonly name: string; readonly detail: string }[];
}

const PARTS = ['ok', 'trace', 'wire', 'mismatches'] as const;

function detail(a: ScenarioReport, b: ScenarioReport, left: RuntimeName, right: RuntimeName): string {
  const parts = PARTS.filter((p) => !deepEqual(a[p], b[p]));
  const what = parts.map((p) => `${p}: ${left} ${JSON.stringify(a[p])}, ${right} ${JSON.stringify(b[p])}`);
  return `differs and no difference is declared: ${what.join('; ')}`;
}

/**
 * Compares two reports of the same corpus (usually two runtimes'). A scenario is the same when
 * its reports are equal (the `runtime` of the reports aside); it differs *as declared* when one
 * side applied a difference its file declares and both sides met their expectations. Any other
 * difference — a scenario on one side only, one that failed on one side, a different trace
 * with nothing declared — is undeclared, and `same` is false.
 *
 * @example
 * const comparison = compareReports(nodeReport, denoReport);
 * if (!comparison.same) throw new Error(comparison.undeclared.map((u) => `${u.name}: ${u.detail}`).join('\n'));
 */
export function compareReports(a: CorpusReport, b: CorpusReport): ReportComparison {
  const left = new Map(a.scenarios.map((s) => [s.name, scenarioReport(s)]));
  const right = new Map(b.scenarios.map((s) => [s.name, scenarioReport(s)]));
  const names = [...new Set([...left.keys(), ...right.keys()])].sort();
  const identical: string[] = [];
  const declared: { name: string; runtimes: RuntimeName[]; what: string }[] = [];
  const undeclared: { name: string; detail: string }[] = [];
  for (const name of names) {
    const x = left.get(name);
    const y = right.get(name);
    if (!x || !y) {
      undeclared.push({ name, detail: `only in the ${x ? a.runtime : b.runtime} report` });
    } else if (JSON.stringify(x) === JSON.stringify(y)) {
      identical.push(name);
    } else if (x.difference || y.difference) {
      if (x.ok && y.ok) {
        const runtimes = [...(x.difference ? [a.runtime] : []), ...(y.difference ? [b.runtime] : [])];
        declared.push({ name, runtimes, what: (x.difference ?? y.difference)!.what });
      } else {
        const failed = [x.ok ? undefined : a.runtime, y.ok ? undefined : b.runtime].filter(Boolean).join(' and ');
        undeclared.push({ name, detail: `failed on ${failed}, so its declared difference does not cover it: ${detail(x, y, a.runtime, b.runtime)}` });
      }
    } else {
      undeclared.push({ name, detail: detail(x, y, a.runtime, b.runtime) });
    }
  }
  return { same: undeclared.length === 0, identical, declared, undeclared };
}
