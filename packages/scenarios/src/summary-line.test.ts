import { corpusReport, scenarioReport } from './report.ts';
import { describe, expect, it } from 'vitest';
import { summaryLine } from './summary-line.ts';

const passed = scenarioReport({ name: 'a', trace: [], wire: {}, mismatches: [] });
const declared = scenarioReport({ name: 'b', difference: { what: 'x', why: 'y' }, trace: [], wire: {}, mismatches: [] });
const failed = scenarioReport({ name: 'c', trace: [], wire: {}, mismatches: ['trace: …'] });

describe('summaryLine', () => {
  it('counts, the declared differences applied, and names what failed', () => {
    expect(summaryLine(corpusReport('node', [passed]))).toBe('node: 1 scenario, 1 passed, 0 failed');
    expect(summaryLine(corpusReport('node', [passed, declared, failed]))).toBe('node: 3 scenarios, 2 passed, 1 failed, 1 with a declared difference (c)');
    expect(summaryLine(corpusReport('node', []))).toBe('node: 0 scenarios, 0 passed, 0 failed: no scenario at all');
  });
});
