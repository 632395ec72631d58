import { corpusReport, scenarioReport, type CorpusReport, type RuntimeName, type ScenarioReport } from '@mcp-resilience/scenarios';
import { describe, expect, it } from 'vitest';
import { proofTable, renderProofTable } from './proof-table.ts';

const lost = { type: 'session-lost', session: 1, dialect: 'amdahl', method: 'tools/call', cause: 'unknown', suspectedServerBug: false } as const;
const gaveUp = { type: 'gave-up', method: 'tools/call', code: 'OUTCOME_UNKNOWN' } as const;

function scenario(name: string, parts: Partial<Omit<ScenarioReport, 'name'>> = {}): ScenarioReport {
  return scenarioReport({ name, trace: [lost], wire: { posts: ['initialize 200'] }, mismatches: [], ...parts });
}
const report = (runtime: RuntimeName, ...scenarios: ScenarioReport[]): CorpusReport => corpusReport(runtime, scenarios);

describe('proofTable', () => {
  it('passes every cell when each runtime reports what the reference did', () => {
    const table = proofTable(report('node', scenario('a'), scenario('b')), [report('deno', scenario('b'), scenario('a'))]);
    expect(table).toEqual({
      runtimes: ['node', 'deno'], passed: true,
      rows: [{ scenario: 'a', cells: [{ mark: 'pass' }, { mark: 'pass' }] }, { scenario: 'b', cells: [{ mark: 'pass' }, { mark: 'pass' }] }],
    });
  });

  it('names a difference the file declares for that runtime, and still passes', () => {
    const difference = { what: 'gives up instead of resuming', why: 'the runtime cannot see the cursor' };
    const table = proofTable(report('node', scenario('a')), [report('browser', scenario('a', { trace: [gaveUp], difference }))]);
    expect(table.rows[0]!.cells).toEqual([{ mark: 'pass' }, { mark: 'declared', what: 'gives up instead of resuming' }]);
    expect(table.passed).toBe(true);
  });

  it('fails a cell whose report differs with nothing declared', () => {
    const table = proofTable(report('node', scenario('a')), [report('workerd', scenario('a', { trace: [gaveUp] }))]);
    expect(table.rows[0]!.cells[1]).toMatchObject({ mark: 'fail', detail: expect.stringContaining('no difference is declared') });
    expect(table.passed).toBe(false);
  });

  it('fails a scenario that failed on one runtime, or that one runtime did not run', () => {
    const failed = scenario('a', { mismatches: ['trace: expected …'] });
    const table = proofTable(report('node', scenario('a'), scenario('b')), [report('deno', failed)]);
    expect(table.rows.map((r) => r.cells[1]!.mark)).toEqual(['fail', 'fail']);
    expect(table.rows[1]!.cells[1]).toMatchObject({ detail: 'only in the node report' });
    expect(proofTable(report('node', failed), []).rows[0]!.cells[0]).toEqual({ mark: 'fail', detail: 'trace: expected …' });
  });

  it('names its columns as asked: the same runtime on two Node lines', () => {
    const table = proofTable(report('node', scenario('a')), [report('node', scenario('a')), report('node', scenario('a', { trace: [gaveUp] }))], ['node', 'node24', 'node26']);
    expect(table.runtimes).toEqual(['node', 'node24', 'node26']);
    expect(table.rows[0]!.cells.map((c) => c.mark)).toEqual(['pass', 'pass', 'fail']);
    expect(renderProofTable(table)).toMatch(/^\| scenario \| node \| node24 \| node26 \|\n[^]*- ✗ a on node26: differs/);
    expect(() => proofTable(report('node', scenario('a')), [report('node', scenario('a'))], ['node'])).toThrow(/1 names for 2 reports/);
  });

  it('fails a reference that lacks a scenario another runtime ran', () => {
    const table = proofTable(report('node', scenario('a')), [report('deno', scenario('a'), scenario('z'))]);
    expect(table.rows[1]).toEqual({ scenario: 'z', cells: [{ mark: 'fail', detail: 'not in the node report' }, { mark: 'fail', detail: 'only in the deno report' }] });
  });
});

describe('renderProofTable', () => {
  it('draws scenario × runtime in Markdown, and explains each failure under it', () => {
    const difference = { what: 'a | b', why: 'why' };
    const table = proofTable(report('node', scenario('a'), scenario('b')), [
      report('browser', scenario('a', { trace: [gaveUp], difference }), scenario('b', { trace: [gaveUp] })),
    ]);
    const [head, failures] = renderProofTable(table).split('\n\n');
    expect(head).toBe(['| scenario | node | browser |', '|---|:-:|:-:|', '| a | ✓ | declared: a \\| b |', '| b | ✓ | ✗ |'].join('\n'));
    expect(failures).toMatch(/^- ✗ b on browser: differs and no difference is declared: trace: node .*\n$/);
  });
});
