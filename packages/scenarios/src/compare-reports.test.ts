import { describe, expect, it } from 'vitest';
import { compareReports } from './compare-reports.ts';
import { corpusReport, scenarioReport } from './report.ts';

const lost = { type: 'session-lost', session: 1, dialect: 'amdahl', cause: 'unknown', suspectedServerBug: false } as const;
const replayed = { type: 'replayed', session: 2, method: 'tools/call' } as const;
const ok = (name: string, trace: object[] = [lost, replayed], difference?: { what: string; why: string }) =>
  scenarioReport({ name, trace: trace as never, wire: { posts: ['tools/call 200 s1'] }, mismatches: [], ...(difference ? { difference } : {}) });
const browserDifference = { what: 'gives up instead of replaying', why: 'a page cannot tell a refused connection from a broken one' };

describe('compareReports', () => {
  it('two runtimes that came out the same: same, every scenario identical', () => {
    const comparison = compareReports(corpusReport('node', [ok('a'), ok('b')]), corpusReport('deno', [ok('b'), ok('a')]));
    expect(comparison).toEqual({ same: true, identical: ['a', 'b'], declared: [], undeclared: [] });
  });

  it('a difference the file declares, met on that runtime: same, and said to be declared', () => {
    const browser = ok('a', [lost, { type: 'gave-up', code: 'OUTCOME_UNKNOWN' }], browserDifference);
    const comparison = compareReports(corpusReport('node', [ok('a')]), corpusReport('browser', [browser]));
    expect(comparison).toEqual({ same: true, identical: [], declared: [{ name: 'a', runtimes: ['browser'], what: browserDifference.what }], undeclared: [] });
  });

  it('a difference nobody declared: not the same, and what differs is named', () => {
    const deno = ok('a', [lost]);
    const comparison = compareReports(corpusReport('node', [ok('a'), ok('b')]), corpusReport('deno', [deno, ok('b')]));
    expect(comparison.same).toBe(false);
    expect(comparison.identical).toEqual(['b']);
    expect(comparison.undeclared).toEqual([{ name: 'a', detail: expect.stringMatching(/^differs and no difference is declared: trace: node \[.*"replayed".*\], deno \[/) }]);
  });

  it('a declared difference does not cover a scenario that failed', () => {
    const failed = scenarioReport({ name: 'a', difference: browserDifference, trace: [lost], wire: {}, mismatches: ['trace: expected …'] });
    const comparison = compareReports(corpusReport('node', [ok('a')]), corpusReport('browser', [failed]));
    expect(comparison.same).toBe(false);
    expect(comparison.undeclared[0]?.detail).toMatch(/^failed on browser/);
  });

  it('a scenario on one side only is a difference', () => {
    const comparison = compareReports(corpusReport('node', [ok('a'), ok('b')]), corpusReport('workerd', [ok('a')]));
    expect(comparison.undeclared).toEqual([{ name: 'b', detail: 'only in the node report' }]);
  });
});
