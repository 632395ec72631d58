import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diagnoseLoss, type LossFacts } from './diagnose.ts';
import { lossReport, REPORTED_EXCHANGES, type ExchangeNote } from './loss-report.ts';

const busy: LossFacts = { sessionStartedAtMs: 1_000, lastActivityAtMs: 9_000, failedAtMs: 10_000, serverUptimeSeconds: 3_600 };

describe('lossReport', () => {
  it('reports a session evicted while in use: figures, why busy, the last exchanges as offsets from its start', () => {
    const exchanges: ExchangeNote[] = [{ method: 'tools/call', status: 200, atMs: 9_000 }, { method: 'tools/call', status: 404, atMs: 10_000 }];
    expect(lossReport(busy, diagnoseLoss(busy), exchanges)).toEqual({
      sessionAgeMs: 9_000, idleMs: 1_000, serverUptimeSeconds: 3_600, busy: { because: 'recent-exchange', windowMs: 60_000 },
      exchanges: [{ method: 'tools/call', status: 200, offsetMs: 8_000 }, { method: 'tools/call', status: 404, offsetMs: 9_000 }],
    });
  });

  it('says an open stream made the session busy, with the window in force', () => {
    const facts = { ...busy, lastActivityAtMs: 1_000, streamOpen: true, busyWindowMs: 5_000 };
    expect(lossReport(facts, diagnoseLoss(facts), [])?.busy).toEqual({ because: 'stream-open', windowMs: 5_000 });
  });

  it('reports nothing for a restart, an idle expiry or an unknown cause', () => {
    const restart = { ...busy, serverUptimeSeconds: 2 };
    const idle = { ...busy, lastActivityAtMs: 1_000, failedAtMs: 7_300_000, idleBudgetMs: 7_200_000, serverUptimeSeconds: 86_400 };
    const { serverUptimeSeconds: _, ...unknown } = busy;
    for (const facts of [restart, idle, unknown]) expect(lossReport(facts, diagnoseLoss(facts), [{ method: 'ping', status: 200, atMs: 0 }])).toBeUndefined();
  });

  it('exists exactly for evicted-while-busy, keeps the last exchanges only, with offsets never negative', () => {
    const note = fc.record({ method: fc.constantFrom('tools/call', 'ping', 'GET'), status: fc.oneof(fc.integer({ min: 100, max: 599 }), fc.constant('network' as const)), atMs: fc.integer({ min: 0, max: 1e7 }) });
    const facts = fc.record({
      sessionStartedAtMs: fc.integer({ min: 0, max: 1e7 }), lastActivityAtMs: fc.integer({ min: 0, max: 1e7 }), failedAtMs: fc.integer({ min: 0, max: 1e7 }),
      serverUptimeSeconds: fc.integer({ min: 0, max: 1e5 }), streamOpen: fc.boolean(),
    });
    fc.assert(fc.property(facts, fc.array(note, { maxLength: 40 }), (f, notes) => {
      const diagnosis = diagnoseLoss(f);
      const report = lossReport(f, diagnosis, notes);
      expect(report !== undefined).toBe(diagnosis.cause === 'evicted-while-busy');
      if (!report) return;
      expect(report.exchanges).toHaveLength(Math.min(notes.length, REPORTED_EXCHANGES));
      expect(report.exchanges.map((e) => e.method)).toEqual(notes.slice(-REPORTED_EXCHANGES).map((n) => n.method));
      expect(report.exchanges.every((e) => e.offsetMs >= 0)).toBe(true);
    }), { numRuns: 500 });
  });
});
