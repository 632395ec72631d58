import { describe, expect, it } from 'vitest';
import type { ScoreboardClient } from './clients.ts';
import { committedCells, mergeScenarioRuns, settleScenario } from './races.ts';
import type { CheckJson } from './run-check-process.ts';

type Scenario = CheckJson['scenarios'][number];

/** A scenario run: each check by name, passed or not, all required. */
function scenario(name: string, checks: Record<string, boolean>, extra: Partial<Scenario> = {}): Scenario {
  const list = Object.entries(checks).map(([check, passed]) => ({ name: check, passed, required: true, detail: passed ? '' : `${check} failed` }));
  return { name, status: list.some((c) => !c.passed) ? 'failed' : 'passed', checks: list, ...extra };
}

/** A client that declares one check of `crowd` varying, and nothing of `race`. */
const proxy: ScoreboardClient = { name: 'proxy', file: 'proxy.mjs', plain: 'plain', varies: { crowd: ['one-initialize'] } };

describe('committedCells', () => {
  const doc = [
    'Some text | with a bar.', '',
    '| scenario | plain | proxy |', '|---|---|---|',
    '| crowd | ✗ 1/3: reinitialized, calls-answered | ✗ 0/2: reinitialized, calls-answered · varies: one-initialize |',
    '| race | ✗ 1/2: reinitialized | ✓ 2/2 · 3 req |',
    '| **checks passed** | **2/5** | **2/4 + 1 varies** |', '',
  ].join('\n');

  it("reads each cell of the table whose header names these clients, by client and scenario, up to the totals", () => {
    const cells = committedCells(doc, ['plain', 'proxy']);
    expect(cells.get('proxy')?.get('race')).toBe('✓ 2/2 · 3 req');
    expect(cells.get('plain')?.get('crowd')).toBe('✗ 1/3: reinitialized, calls-answered');
    expect([...cells.get('proxy')!.keys()]).toEqual(['crowd', 'race']);
  });

  it('reads nothing from a table of other clients', () => {
    expect([...committedCells(doc, ['plain', 'proxy', 'another']).values()].every((cells) => cells.size === 0)).toBe(true);
  });
});

describe('mergeScenarioRuns', () => {
  it('records a check whose verdict differed as varying, whichever check it is, and the rest as seen', () => {
    const merged = mergeScenarioRuns([
      scenario('race', { reinitialized: true, 'dead-id-dropped': true, 'calls-answered': false }),
      scenario('race', { reinitialized: true, 'dead-id-dropped': false, 'calls-answered': false }),
      scenario('race', { reinitialized: true, 'dead-id-dropped': true, 'calls-answered': false }),
    ]);
    expect(merged.checks.map((c) => [c.name, c.passed, c.varies])).toEqual([
      ['reinitialized', true, undefined], ['dead-id-dropped', false, { passed: 2, runs: 3 }], ['calls-answered', false, undefined],
    ]);
    expect(merged.checks[1]!.detail).toBe('varies: passed 2 of 3; failed: dead-id-dropped failed');
    expect(merged.status).toBe('failed'); // calls-answered failed every run
  });

  it("is `varies` when a varying required check is all that fails, and leaves out runs that could not be scored", () => {
    const merged = mergeScenarioRuns([
      scenario('race', { reinitialized: true, 'one-initialize': true }),
      scenario('race', {}, { status: 'failed', problem: 'hung: still running after 60000 ms (killed)' }),
      scenario('race', { reinitialized: true, 'one-initialize': false }),
    ]);
    expect(merged.status).toBe('varies');
    expect(merged.checks.find((c) => c.name === 'one-initialize')?.varies).toEqual({ passed: 1, runs: 2 });
  });
});

describe('settleScenario', () => {
  it('finds the committed cell among the runs when an undeclared check raced, and records that check as varying', () => {
    const first = scenario('race', { reinitialized: true, 'dead-id-dropped': false }, { cost: { recovered: true, requests: 3, ms: 9 } });
    const again = scenario('race', { reinitialized: true, 'dead-id-dropped': true }, { cost: { recovered: true, requests: 3, ms: 7 } });
    const settled = settleScenario(proxy, [first, again, again], '✓ 2/2 · 3 req');
    expect(settled.asCommitted).toBe(again);
    expect(settled.varied).toEqual(['dead-id-dropped']);
    expect(settled.merged.checks.find((c) => c.name === 'dead-id-dropped')?.varies).toEqual({ passed: 2, runs: 3 });
  });

  it('shows the merge when the committed cell already names the race as varying', () => {
    const runs = [scenario('race', { reinitialized: true, 'dead-id-dropped': false }), scenario('race', { reinitialized: true, 'dead-id-dropped': true })];
    expect(settleScenario(proxy, runs, '± 1/1 · varies: dead-id-dropped').asCommitted?.status).toBe('varies');
  });

  it('finds no committed cell when every run repeats a difference: a change, not a race', () => {
    const changed = scenario('race', { reinitialized: false, 'dead-id-dropped': true });
    const settled = settleScenario(proxy, [changed, changed, changed, changed], '✓ 2/2 · 3 req');
    expect(settled.asCommitted).toBeUndefined();
    expect(settled.varied).toEqual([]);
  });
});
