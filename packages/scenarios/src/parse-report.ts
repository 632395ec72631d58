import { ScenarioError } from './errors.ts';
import { corpusReport, type CorpusReport, type ScenarioReport } from './report.ts';
import { RUNTIMES, type RuntimeName } from './scenario.ts';

function bad(what: string): never {
  throw new ScenarioError('REPORT_INVALID', `not a scenario report: ${what}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function entry(value: unknown, i: number): ScenarioReport {
  if (!isObject(value)) bad(`scenarios[${i}] is not an object`);
  const { name, ok, difference, trace, wire, mismatches } = value;
  const unknown = Object.keys(value).filter((k) => !['name', 'ok', 'difference', 'trace', 'wire', 'mismatches'].includes(k));
  if (unknown.length > 0) bad(`scenarios[${i}] has unknown fields ${unknown.join(', ')}`);
  if (typeof name !== 'string' || typeof ok !== 'boolean') bad(`scenarios[${i}] needs a name and ok`);
  if (!Array.isArray(trace) || !trace.every((e) => isObject(e) && typeof e.type === 'string')) bad(`${name}: trace is not a list of events`);
  if (!isObject(wire)) bad(`${name}: wire is not an object`);
  if (!Array.isArray(mismatches) || !mismatches.every((m) => typeof m === 'string')) bad(`${name}: mismatches is not a list of strings`);
  if (ok !== (mismatches.length === 0)) bad(`${name}: ok is ${ok} with ${mismatches.length} mismatches`);
  if (difference !== undefined && !(isObject(difference) && typeof difference.what === 'string' && typeof difference.why === 'string')) {
    bad(`${name}: difference needs what and why`);
  }
  return value as unknown as ScenarioReport;
}

/**
 * Reads a report another runtime printed (its text or parsed JSON) and checks its shape;
 * `ScenarioError` `REPORT_INVALID` otherwise. What comes back renders to canonical text.
 *
 * @example
 * const deno = parseReport(new TextDecoder().decode(output.stdout));
 */
export function parseReport(value: string | unknown): CorpusReport {
  let json = value;
  if (typeof value === 'string') {
    try {
      json = JSON.parse(value);
    } catch {
      bad('not JSON');
    }
  }
  if (!isObject(json)) bad('not an object');
  if (!(RUNTIMES as readonly unknown[]).includes(json.runtime)) bad(`runtime must be one of ${RUNTIMES.join(', ')}`);
  if (!Array.isArray(json.scenarios)) bad('scenarios is not a list');
  const report = corpusReport(json.runtime as RuntimeName, json.scenarios.map(entry));
  if (report.passed !== json.passed || report.failed !== json.failed) bad(`passed/failed (${String(json.passed)}/${String(json.failed)}) do not match its scenarios`);
  return report;
}
