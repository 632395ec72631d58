import type { ScenarioHost } from './host.ts';
import { parseCorpus, type ScenarioSource } from './parse-corpus.ts';
import { corpusReport, scenarioReport, type CorpusReport, type ScenarioReport } from './report.ts';
import { runScenario } from './run-scenario.ts';

/** Options of {@link runCorpus}. */
export interface RunCorpusOptions {
  /** Called after each scenario, with its report (progress, a live view). */
  readonly onScenario?: (report: ScenarioReport) => void;
}

/**
 * Runs a corpus, one scenario after another, into one report. A file that cannot be mapped is
 * a failed scenario named by its file, never skipped; an empty corpus is a report with no
 * scenarios (a sample should treat it as a failure).
 *
 * @example
 * const report = await runCorpus(files.map((file) => ({ file, text: read(file) })), host);
 * console.log(renderReport(report));
 */
export async function runCorpus(sources: readonly ScenarioSource[], host: ScenarioHost, options: RunCorpusOptions = {}): Promise<CorpusReport> {
  const reports: ScenarioReport[] = [];
  for (const entry of parseCorpus(sources)) {
    const report = entry.error
      ? scenarioReport({ name: entry.file, trace: [], wire: {}, mismatches: [entry.error.message] })
      : await runScenario(entry.scenario, host);
    reports.push(report);
    options.onScenario?.(report);
  }
  return corpusReport(host.runtime, reports);
}
