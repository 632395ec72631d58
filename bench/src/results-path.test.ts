import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { defaultResultsPath } from './results-path.ts';

describe('defaultResultsPath: only a full run updates the committed results', () => {
  it('full runs: bench/results/latest.json, bench/results/soak.json and bench/results/runtimes.json', () => {
    expect(defaultResultsPath('bench', { full: true })).toMatch(/\/bench\/results\/latest\.json$/);
    expect(defaultResultsPath('runtimes', { full: true })).toMatch(/\/bench\/results\/runtimes\.json$/);
    expect(defaultResultsPath('soak', { full: true })).toMatch(/\/bench\/results\/soak\.json$/);
  });

  it('quick, short and resized runs: bench/results/local/, which git ignores', () => {
    const local = [
      defaultResultsPath('bench', { full: false }), defaultResultsPath('soak', { full: false, short: true }), defaultResultsPath('soak', { full: false }),
      defaultResultsPath('runtimes', { full: false }),
    ];
    expect(local.map((path) => path.replace(/^.*\/bench\//, 'bench/'))).toEqual([
      'bench/results/local/latest.json', 'bench/results/local/soak-short.json', 'bench/results/local/soak.json', 'bench/results/local/runtimes.json',
    ]);
    const ignored = spawnSync('git', ['check-ignore', ...local], { encoding: 'utf8' });
    expect(ignored.stdout.trim().split('\n')).toEqual(local);
    const committed = spawnSync('git', ['check-ignore', defaultResultsPath('bench', { full: true })], { encoding: 'utf8' });
    expect(committed.status).toBe(1); // not ignored
  });
});
