import { describe, expect, it } from 'vitest';
import type { ScoreboardClient } from './clients.ts';
import type { CheckJson } from './run-check-process.ts';
import { renderScoreboard, worseThanPlain, type ScoreboardColumn } from './scoreboard-table.ts';

type Scenario = CheckJson['scenarios'][number];

/** A scenario of a report: each check by name, passed or not (all required unless named in `optional`). */
function scenario(name: string, checks: Record<string, boolean>, extra: Partial<Scenario> = {}, optional: string[] = []): Scenario {
  const list = Object.entries(checks).map(([check, passed]) => ({ name: check, passed, required: !optional.includes(check), detail: '' }));
  const failed = list.some((c) => c.required && !c.passed);
  return { name, status: failed ? 'failed' : 'passed', checks: list, ...extra };
}

function column(client: ScoreboardClient, scenarios: Scenario[]): ScoreboardColumn {
  const checks = scenarios.flatMap((s) => s.checks);
  return { client, report: { client: client.name, checks: { passed: checks.filter((c) => c.passed).length, total: checks.length }, requiredFailed: 0, scenarios } };
}

const plain: ScoreboardClient = { name: 'plain', file: 'plain.mjs' };
const proxy: ScoreboardClient = { name: 'proxy', file: 'proxy.mjs', plain: 'plain', varies: { crowd: ['one-initialize'], race: ['reinitialized'] } };
/** The same client, declaring nothing. */
const undeclared: ScoreboardClient = { name: 'proxy', file: 'proxy.mjs', plain: 'plain' };

// The plain client fails both scenarios steadily. The proxy fails reinitialized and calls-answered
// in `crowd` every run (one-initialize varies); in `race` its verdict turns on reinitialized alone,
// and it fails the optional session-kept every run, which the plain client passes.
const columns = [
  column(plain, [
    scenario('crowd', { reinitialized: false, 'one-initialize': true, 'calls-answered': false }),
    scenario('race', { reinitialized: false, 'session-kept': true }, {}, ['session-kept']),
    scenario('auth', {}, { status: 'skipped', skipped: 'no auth' }),
  ]),
  column(proxy, [
    scenario('crowd', { reinitialized: false, 'one-initialize': false, 'calls-answered': false }),
    scenario('race', { reinitialized: true, 'session-kept': false }, { cost: { recovered: true, requests: 3, ms: 5 } }, ['session-kept']),
    scenario('auth', {}, { status: 'skipped', skipped: 'no auth' }),
  ]),
];

describe('renderScoreboard', () => {
  const table = renderScoreboard(columns).split('\n');

  it('shows and counts every check a client does not declare varying, and names the varying ones apart', () => {
    expect(table[2]).toBe('| crowd | ✗ 1/3: reinitialized, calls-answered | ✗ 0/2: reinitialized, calls-answered · varies: one-initialize |');
    expect(table[3]).toBe('| race | ✗ 1/2: reinitialized | ± 0/1: (session-kept) · 3 req · varies: reinitialized |');
    expect(table[4]).toBe('| auth | – skipped | – skipped |');
  });

  it('leaves the varying checks out of the totals, and a scenario whose verdict turns on one, each with +N varies', () => {
    expect(table[5]).toBe('| **checks passed** | **2/5** | **0/3 + 2 varies** |');
    expect(table[6]).toBe('| **scenarios passed** | **0/2 (1 skipped)** | **0/1 (1 skipped) + 1 varies** |');
  });

  it('scores a client that declares nothing as before: each scenario whole', () => {
    const whole = renderScoreboard([column(undeclared, columns[1]!.report.scenarios.slice())]).split('\n');
    expect(whole.slice(2)).toEqual([
      '| crowd | ✗ 0/3: reinitialized, one-initialize, calls-answered |',
      '| race | ✓ 1/2: (session-kept) · 3 req |',
      '| auth | – skipped |',
      '| **checks passed** | **1/5** |',
      '| **scenarios passed** | **1/2 (1 skipped)** |',
      '',
    ]);
  });
});

describe('a check seen to vary by --repeat', () => {
  it('is shown and counted as varying whether or not the client declares it', () => {
    const seen = scenario('race', { reinitialized: true, 'dead-id-dropped': false }, { status: 'varies' });
    const marked = { ...seen, checks: seen.checks.map((c) => (c.name === 'dead-id-dropped' ? { ...c, varies: { passed: 1, runs: 2 } } : c)) };
    expect(renderScoreboard([column(undeclared, [marked])]).split('\n').slice(2, 5)).toEqual([
      '| race | ± 1/1 · varies: dead-id-dropped |',
      '| **checks passed** | **1/1 + 1 varies** |',
      '| **scenarios passed** | **0/0 + 1 varies** |',
    ]);
  });
});

describe('worseThanPlain', () => {
  it('compares only the checks that repeat for both: a varying check the plain client passes is no finding, a steady one is', () => {
    expect(worseThanPlain(columns)).toEqual(['proxy, race: session-kept (plain passes it)']);
    // Declaring nothing, the proxy is worse in `crowd` (one-initialize), not in `race` (each passes one check there).
    expect(worseThanPlain([columns[0]!, column(undeclared, columns[1]!.report.scenarios.slice())])).toEqual([
      'proxy, crowd: one-initialize (plain passes it)',
    ]);
  });
});
