import type { NormalizedEvent } from '@mcp-resilience/core';
import type { RuntimeName, SessionExpectation } from './scenario.ts';
import type { WireSummary } from './wire-summary.ts';

/** What one scenario came to on one runtime. */
export interface ScenarioReport {
  /** The scenario's name (a file that could not be mapped: its file name). */
  readonly name: string;
  readonly ok: boolean;
  /** The declared difference that was applied on this runtime, if any. */
  readonly difference?: { readonly what: string; readonly why: string };
  /** The normalized trace (see conformance/scenarios/README.md). */
  readonly trace: readonly NormalizedEvent[];
  /** The server's side of what the scenario checks: `posts`, `postCounts`, `requestCounts`, `ledger`, `sessions`. */
  readonly wire: WireSummary;
  /** Each expectation that did not hold; `[]` when `ok`. */
  readonly mismatches: readonly string[];
}

/** The report of a corpus on one runtime: one canonical JSON document (see {@link renderReport}). */
export interface CorpusReport {
  readonly runtime: RuntimeName;
  readonly scenarios: readonly ScenarioReport[];
  readonly passed: number;
  readonly failed: number;
}

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** A JSON value with every object's keys in code-unit order (`type` first in an event). */
function sorted(value: unknown, typeFirst = false): Json {
  if (Array.isArray(value)) return value.map((v) => sorted(v));
  if (typeof value !== 'object' || value === null) return value as Json;
  const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort(byCodeUnit);
  const order = typeFirst && keys.includes('type') ? ['type', ...keys.filter((k) => k !== 'type')] : keys;
  return Object.fromEntries(order.map((k) => [k, sorted((value as Record<string, unknown>)[k])]));
}

function canonicalSession(s: SessionExpectation): SessionExpectation {
  return { ordinal: s.ordinal, subscriptions: [...s.subscriptions], ...(s.logLevel === undefined ? {} : { logLevel: s.logLevel }) };
}

function canonicalWire(wire: WireSummary): WireSummary {
  return {
    ...(wire.posts ? { posts: [...wire.posts] } : {}),
    ...(wire.postCounts ? { postCounts: sorted(wire.postCounts) as Record<string, number> } : {}),
    ...(wire.requestCounts ? { requestCounts: sorted(wire.requestCounts) as Record<string, number> } : {}),
    ...(wire.ledger ? { ledger: sorted(wire.ledger) as Record<string, number> } : {}),
    ...(wire.sessions ? { sessions: wire.sessions.map(canonicalSession) } : {}),
  };
}

/**
 * A scenario's report with its keys in the canonical order (`name`, `ok`, `difference`,
 * `trace`, `wire`, `mismatches`) and its data sorted, so that equal reports are equal text.
 *
 * @example
 * scenarioReport({ name: 'evict-amdahl', trace: [], wire: {}, mismatches: [] }).ok; // true
 */
export function scenarioReport(parts: Omit<ScenarioReport, 'ok'> & { readonly ok?: boolean }): ScenarioReport {
  return {
    name: parts.name,
    ok: parts.ok ?? parts.mismatches.length === 0,
    ...(parts.difference ? { difference: { what: parts.difference.what, why: parts.difference.why } } : {}),
    trace: parts.trace.map((event) => sorted(event, true) as NormalizedEvent),
    wire: canonicalWire(parts.wire),
    mismatches: [...parts.mismatches],
  };
}

/**
 * The report of a corpus: scenarios by name, then the counts. A Worker that runs one scenario
 * per request returns {@link ScenarioReport}s; whoever gathers them makes the report here.
 *
 * @example
 * const report = corpusReport('workerd', await Promise.all(names.map(runOneInTheWorker)));
 */
export function corpusReport(runtime: RuntimeName, scenarios: readonly ScenarioReport[]): CorpusReport {
  const canonical = scenarios.map(scenarioReport).sort((a, b) => byCodeUnit(a.name, b.name));
  const passed = canonical.filter((s) => s.ok).length;
  return { runtime, scenarios: canonical, passed, failed: canonical.length - passed };
}

/**
 * The canonical text of a report: keys in a fixed order, two-space indent, a final newline; no
 * times, ports or ids anywhere in it. Two runs that came out the same are the same bytes.
 *
 * @example
 * process.stdout.write(renderReport(report));
 */
export function renderReport(report: CorpusReport): string {
  return `${JSON.stringify(corpusReport(report.runtime, report.scenarios), null, 2)}\n`;
}
