/**
 * @mcp-resilience/scenarios — the runner of the end-to-end scenarios (`conformance/scenarios`)
 * for every runtime. A runtime gives it a host (its adapter's fetch, the SDK's classes, a
 * chaos pool over HTTP, timers) and the files as data; it returns one canonical report that
 * compares byte for byte with another runtime's. Web-standard APIs only: no `node:` import,
 * no file access.
 *
 * @example
 * import { chaosPool, renderReport, runCorpus } from '@mcp-resilience/scenarios';
 * const report = await runCorpus(sources, { runtime: 'deno', createFetch, sdk: { Client, StreamableHTTPClientTransport }, chaos: chaosPool(control) });
 * console.log(renderReport(report));
 *
 * @module
 */
export { CALL_TIMEOUT_MS, errorCode } from './call-outcome.ts';
export { defaultSleep, HangError, within, type Sleep } from './deadline.ts';
export { chaosPool, type ChaosControl, type ChaosInstance, type ChaosStateView } from './chaos-control.ts';
export { compareReports, type ReportComparison } from './compare-reports.ts';
export { isScenarioError, ScenarioError, type ScenarioErrorCode } from './errors.ts';
export type {
  ScenarioClient, ScenarioFetchOptions, ScenarioHost, ScenarioLongToolOptions, ScenarioRequestOptions, ScenarioSdk,
} from './host.ts';
export { percentile, ratio, summarize, type Summary } from './latency-stats.ts';
export {
  measureOverhead, measureRuntimeOverhead, OVERHEAD_CONCURRENCY, RUNTIME_OVERHEAD_SIZES,
  type AnswerFormat, type CpuClock, type MeasureOverheadOptions, type OverheadResult, type OverheadSize, type RuntimeOverhead,
} from './measure-overhead.ts';
export type { OverheadComparison, OverheadSide, OverheadSpread } from './overhead-compare.ts';
export { judge, quantile, spreadOf, type Spread } from './spread.ts';
export { parseCorpus, parseScenarioFile, type CorpusEntry, type ScenarioSource } from './parse-corpus.ts';
export { parseReport } from './parse-report.ts';
export { parseScenario } from './parse-scenario.ts';
export { corpusReport, renderReport, scenarioReport, type CorpusReport, type ScenarioReport } from './report.ts';
export { runCorpus, type RunCorpusOptions } from './run-corpus.ts';
export { runScenario, scenarioTrace } from './run-scenario.ts';
export { planFor, type RuntimePlan } from './runtime-plan.ts';
export * from './scenario.ts';
export { summaryLine } from './summary-line.ts';
export type { WireSummary } from './wire-summary.ts';
