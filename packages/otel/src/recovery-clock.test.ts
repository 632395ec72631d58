import { describe, expect, it } from 'vitest';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { RecoveryClock } from './recovery-clock.ts';

const lost = (session: number, atMs: number): ResilienceEvent => ({
  type: 'session-lost', session, dialect: 'typescript-sdk', cause: 'evicted-while-idle', suspectedServerBug: false, sessionAgeMs: 0, idleMs: 0, atMs,
});
const reinitialized = (from: number, to: number, atMs: number, reason: 'lost' | 'idle' = 'lost'): ResilienceEvent =>
  ({ type: 'session-reinitialized', from, to, reason, atMs });
const replayed = (session: number, atMs: number): ResilienceEvent => ({ type: 'replayed', session, method: 'tools/call', atMs });

const run = (events: ResilienceEvent[]) => {
  const clock = new RecoveryClock();
  return events.map((e) => clock.observe(e)).filter((r) => r !== undefined);
};

describe('RecoveryClock', () => {
  it('times each call replayed after a loss from the loss, on the engine\'s clock', () => {
    expect(run([lost(1, 1_000), reinitialized(1, 2, 1_040), replayed(2, 1_050), replayed(2, 1_070)])).toEqual([
      { seconds: 0.05, cause: 'evicted-while-idle' }, { seconds: 0.07, cause: 'evicted-while-idle' },
    ]);
  });

  it('keeps the clients of one fetch apart: each numbers its sessions from 1', () => {
    const second = (event: ResilienceEvent): ResilienceEvent => ({ ...event, client: 2 });
    expect(run([lost(1, 0), second(lost(1, 500)), second(reinitialized(1, 2, 510)), reinitialized(1, 2, 600), second(replayed(2, 520)), replayed(2, 700)])).toEqual([
      { seconds: 0.02, cause: 'evicted-while-idle' }, { seconds: 0.7, cause: 'evicted-while-idle' },
    ]);
  });

  it('follows a chain of losses: each replacement is timed from its own loss', () => {
    expect(run([lost(1, 0), reinitialized(1, 2, 10), lost(2, 100), reinitialized(2, 3, 130), replayed(3, 150)])).toEqual([
      { seconds: 0.05, cause: 'evicted-while-idle' },
    ]);
  });

  it('times nothing that did not follow a loss: an idle replacement, a replay with no known loss, an event without a time', () => {
    expect(run([reinitialized(1, 2, 10, 'idle'), replayed(2, 20)])).toEqual([]);
    expect(run([replayed(5, 20)])).toEqual([]);
    expect(run([lost(1, 0), reinitialized(1, 2, 10), { type: 'replayed', session: 2 }])).toEqual([]);
  });

  it('remembers a bounded number of losses: the oldest are forgotten first', () => {
    const events: ResilienceEvent[] = [];
    for (let n = 1; n <= 200; n++) events.push(lost(n, n), reinitialized(n, n + 1_000, n));
    events.push(replayed(1_001, 500), replayed(1_200, 500));
    expect(run(events)).toEqual([{ seconds: 0.3, cause: 'evicted-while-idle' }]);
  });
});
