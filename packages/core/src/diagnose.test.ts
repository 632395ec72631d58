import { describe, expect, it } from 'vitest';
import { diagnoseLoss, type LossFacts } from './diagnose.ts';

const MIN = 60_000;
// A session opened at t=0 and found gone at t=30 min.
const facts = (extra: Partial<LossFacts>): LossFacts => ({ sessionStartedAtMs: 0, lastActivityAtMs: 29 * MIN, failedAtMs: 30 * MIN, ...extra });

describe('diagnoseLoss', () => {
  it('calls a server younger than the session a restart', () => {
    expect(diagnoseLoss(facts({ serverUptimeSeconds: 47 }))).toEqual({
      cause: 'server-restarted', suspectedServerBug: false, sessionAgeMs: 30 * MIN, idleMs: MIN, serverUptimeSeconds: 47,
    });
  });

  it('will not call it within the one-second grain of the uptime', () => {
    expect(diagnoseLoss(facts({ serverUptimeSeconds: 30 * 60 - 1 })).cause).toBe('server-restarted');
    expect(diagnoseLoss(facts({ serverUptimeSeconds: 30 * 60 - 0.5 })).cause).toBe('unknown');
    expect(diagnoseLoss(facts({ serverUptimeSeconds: 30 * 60 + 0.5 })).cause).toBe('unknown');
    expect(diagnoseLoss(facts({ serverUptimeSeconds: 30 * 60 + 1 })).cause).not.toBe('unknown');
  });

  it('reports a busy session lost on an old server as a suspected server bug', () => {
    const busy = diagnoseLoss(facts({ serverUptimeSeconds: 86_400, lastActivityAtMs: 30 * MIN - 2_000 }));
    expect(busy).toMatchObject({ cause: 'evicted-while-busy', suspectedServerBug: true });
    const listening = diagnoseLoss(facts({ serverUptimeSeconds: 86_400, lastActivityAtMs: 0, streamOpen: true }));
    expect(listening).toMatchObject({ cause: 'evicted-while-busy', suspectedServerBug: true });
  });

  it('tells idle expiry from a capacity eviction when the budget is known', () => {
    const idle = facts({ serverUptimeSeconds: 86_400, lastActivityAtMs: 0 });
    expect(diagnoseLoss({ ...idle, idleBudgetMs: 20 * MIN }).cause).toBe('idle-expired');
    expect(diagnoseLoss({ ...idle, idleBudgetMs: 120 * MIN }).cause).toBe('evicted-while-idle');
    expect(diagnoseLoss(idle).cause).toBe('idle-expired');
  });

  it('lets a short idle budget win over the busy window', () => {
    expect(diagnoseLoss(facts({ serverUptimeSeconds: 86_400, idleBudgetMs: 1_000, busyWindowMs: 5 * MIN })).cause).toBe('idle-expired');
  });

  it('says unknown without a usable uptime', () => {
    for (const serverUptimeSeconds of [undefined, -1, Number.NaN, Number.POSITIVE_INFINITY, 1e308, 4e9]) {
      const facts1 = facts(serverUptimeSeconds === undefined ? {} : { serverUptimeSeconds });
      expect(diagnoseLoss(facts1)).toMatchObject({ cause: 'unknown', suspectedServerBug: false });
    }
  });

  it('never reports negative ages from a clock that went back', () => {
    expect(diagnoseLoss({ sessionStartedAtMs: 10, lastActivityAtMs: 20, failedAtMs: 5 })).toMatchObject({ sessionAgeMs: 0, idleMs: 0 });
  });
});
