import { describe, expect, it } from 'vitest';
import { isScenarioError } from './errors.ts';
import { parseReport } from './parse-report.ts';
import { corpusReport, renderReport, scenarioReport, type ScenarioReport } from './report.ts';

const evicted: ScenarioReport = scenarioReport({
  name: 'evict', trace: [{ session: 1, type: 'session-lost', dialect: 'amdahl' }], wire: { ledger: { b: 1, a: 2 } }, mismatches: [],
});

describe('the canonical report', () => {
  it('puts keys in a fixed order: events type first, data sorted, counts after the scenarios', () => {
    const text = renderReport(corpusReport('node', [scenarioReport({ name: 'z', trace: [], wire: {}, mismatches: ['trace: expected …'] }), evicted]));
    expect(text).toBe(`${JSON.stringify({
      runtime: 'node',
      scenarios: [
        { name: 'evict', ok: true, trace: [{ type: 'session-lost', dialect: 'amdahl', session: 1 }], wire: { ledger: { a: 2, b: 1 } }, mismatches: [] },
        { name: 'z', ok: false, trace: [], wire: {}, mismatches: ['trace: expected …'] },
      ],
      passed: 1,
      failed: 1,
    }, null, 2)}\n`);
  });

  it('is the same text however its parts were put together', () => {
    const shuffled = { mismatches: [], wire: { ledger: { a: 2, b: 1 } }, trace: [{ dialect: 'amdahl', type: 'session-lost' as const, session: 1 }], name: 'evict', ok: true };
    expect(renderReport({ runtime: 'deno', scenarios: [shuffled], passed: 0, failed: 9 }))
      .toBe(renderReport(corpusReport('deno', [evicted])));
  });

  it('names the declared difference it applied, after ok', () => {
    const report = scenarioReport({ name: 'x', difference: { why: 'because', what: 'this' }, trace: [], wire: {}, mismatches: [] });
    expect(Object.keys(report)).toEqual(['name', 'ok', 'difference', 'trace', 'wire', 'mismatches']);
    expect(JSON.stringify(report.difference)).toBe('{"what":"this","why":"because"}');
  });
});

describe('parseReport', () => {
  it('reads a rendered report back to the same text', () => {
    const text = renderReport(corpusReport('workerd', [evicted]));
    expect(renderReport(parseReport(text))).toBe(text);
  });

  it('refuses what is not a report', () => {
    const good = JSON.parse(renderReport(corpusReport('node', [evicted])));
    for (const bad of ['{', { ...good, runtime: 'bun' }, { ...good, passed: 7 }, { ...good, scenarios: [{ ...good.scenarios[0], ok: false }] },
      { ...good, scenarios: [{ ...good.scenarios[0], timeMs: 3 }] }, { ...good, scenarios: [{ name: 'x' }] }]) {
      expect(() => parseReport(bad)).toThrow();
      try {
        parseReport(bad);
      } catch (error) {
        expect(isScenarioError(error, 'REPORT_INVALID')).toBe(true);
      }
    }
  });
});
