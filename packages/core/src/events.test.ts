import { describe, expect, it } from 'vitest';
import { normalizeTrace, type ResilienceEvent } from './events.ts';

describe('normalizeTrace', () => {
  it('drops times, waits and figures, and renumbers sessions from 1', () => {
    const trace: ResilienceEvent[] = [
      { type: 'session-started', session: 4, revision: '2025-11-25', atMs: 100 },
      { type: 'backed-off', verdict: 'rate-limited', status: 429, attempt: 1, delayMs: 230, atMs: 101 },
      {
        type: 'session-lost', session: 4, dialect: 'amdahl', method: 'tools/call', cause: 'server-restarted',
        suspectedServerBug: false, sessionAgeMs: 5000, idleMs: 20, serverUptimeSeconds: 2, atMs: 102,
      },
      { type: 'session-reinitialized', from: 4, to: 5, reason: 'lost' },
      { type: 'replayed', session: 5, method: 'tools/call' },
    ];
    expect(normalizeTrace(trace)).toEqual([
      { type: 'session-started', session: 1, revision: '2025-11-25' },
      { type: 'backed-off', verdict: 'rate-limited', status: 429, attempt: 1 },
      { type: 'session-lost', session: 1, dialect: 'amdahl', method: 'tools/call', cause: 'server-restarted', suspectedServerBug: false },
      { type: 'session-reinitialized', from: 1, to: 2, reason: 'lost' },
      { type: 'replayed', session: 2, method: 'tools/call' },
    ]);
  });

  it('gives the same trace for runs that differ only in timing and starting ordinal', () => {
    const run = (offset: number, delay: number): ResilienceEvent[] => [
      { type: 'session-started', session: offset, revision: 'r', atMs: offset * 7 },
      { type: 'resumed', attempt: 1, delayMs: delay },
      { type: 'session-reinitialized', from: offset, to: offset + 1, reason: 'idle' },
    ];
    expect(normalizeTrace(run(1, 10))).toEqual(normalizeTrace(run(9, 999)));
  });
});
