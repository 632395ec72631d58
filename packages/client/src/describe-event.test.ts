import type { ResilienceEvent } from '@mcp-resilience/core';
import { describe, expect, it } from 'vitest';
import { describeEvent } from './describe-event.ts';

const lost = { type: 'session-lost', session: 1, dialect: 'amdahl', sessionAgeMs: 9_000, idleMs: 4_000 } as const;

describe('describeEvent', () => {
  it.each<[ResilienceEvent, string]>([
    [{ type: 'session-started', session: 1, revision: '2025-11-25', atMs: 5 }, 'session 1 started (revision 2025-11-25)'],
    [
      { ...lost, cause: 'server-restarted', suspectedServerBug: false, serverUptimeSeconds: 3 },
      'session 1 lost (amdahl, server-restarted, server up 3 s) → re-initializing',
    ],
    [
      { ...lost, method: 'tools/call', cause: 'evicted-while-busy', suspectedServerBug: true, serverUptimeSeconds: 900 },
      'session 1 lost during tools/call (amdahl, evicted-while-busy, server up 900 s, suspected server bug) → re-initializing',
    ],
    [{ ...lost, dialect: 'go-sdk', cause: 'unknown', suspectedServerBug: false }, 'session 1 lost (go-sdk, unknown) → re-initializing'],
    [{ type: 'session-reinitialized', from: 1, to: 2, reason: 'lost' }, 'session 2 replaces session 1 (lost)'],
    [{ type: 'session-reinitialized', from: 2, to: 3, reason: 'idle' }, 'session 3 replaces session 2 (idle)'],
    [
      { type: 'session-changed', from: 1, to: 2, revision: { from: '2025-06-18', to: '2025-11-25' }, capabilities: ['tools'] },
      'session 2 differs from session 1 (revision 2025-06-18 → 2025-11-25, capabilities [tools]) → call not replayed',
    ],
    [{ type: 'state-restored', session: 2, subscriptions: 1, logLevel: 'debug' }, 'session 2 restored 1 subscription(s), log level debug'],
    [{ type: 'state-restored', session: 2, subscriptions: 3 }, 'session 2 restored 3 subscription(s)'],
    [{ type: 'replayed', session: 2, method: 'tools/call' }, 'tools/call replayed on session 2'],
    [{ type: 'replayed', session: 3, stream: true }, 'standalone stream reopened on session 3'],
    [
      { type: 'backed-off', method: 'tools/call', verdict: 'rate-limited', status: 429, attempt: 1, delayMs: 1_234 },
      'tools/call got HTTP 429 (rate-limited) → retry 1 in 1.2 s',
    ],
    [{ type: 'backed-off', verdict: 'not-processed', attempt: 2, delayMs: 250 }, 'request got not-processed → retry 2 in 250 ms'],
    [{ type: 'resumed', method: 'tools/list', attempt: 1, delayMs: 100 }, 'tools/list stream broke → resume 1 in 100 ms'],
    [{ type: 'reissued', method: 'tools/list', attempt: 1, delayMs: 12_600 }, 'tools/list outcome unknown → re-issue 1 in 13 s'],
    [{ type: 'gave-up', method: 'tools/call', code: 'OUTCOME_UNKNOWN' }, 'tools/call gave up: OUTCOME_UNKNOWN'],
    [
      { type: 'server-wait-started', method: 'tools/call', limitMs: 20_000 },
      'tools/call refused → wait up to 20 s',
    ],
    [
      { type: 'server-wait-ended', method: 'tools/call', outcome: 'reachable', attempts: 14, waitedMs: 10_240 },
      'tools/call waited 10 s for the server: reachable',
    ],
    [
      { type: 'server-wait-ended', method: 'initialize', outcome: 'deadline', attempts: 25, waitedMs: 20_000 },
      'initialize waited 20 s for the server: deadline',
    ],
    [{ type: 'server-wait-ended', outcome: 'aborted', attempts: 1, waitedMs: 75 }, 'request waited 75 ms for the server: aborted'],
    [{ type: 'server-wait-ended', outcome: 'closed', attempts: 3, waitedMs: 1_500 }, 'request waited 1.5 s for the server: closed'],
    [{ type: 'task-survived', task: 1, from: 1, session: 2 }, 'task 1 survived session 1, now on session 2'],
    [
      { type: 'task-lost', task: 2, session: 1, method: 'tasks/get', cause: 'evicted-while-busy', mayStillRun: true, recreatable: false },
      'task 2 lost with session 1 (evicted-while-busy): may still run, not safe to create again',
    ],
    [
      { type: 'task-lost', task: 3, session: 2, method: 'tasks/get', cause: 'server-restarted', mayStillRun: false, recreatable: true },
      'task 3 lost with session 2 (server-restarted): stopped, safe to create again',
    ],
  ])('%o', (event, line) => {
    expect(describeEvent(event)).toBe(`mcp-resilience ${line}`);
  });

  it('still gives a line for an event type it does not know', () => {
    expect(describeEvent({ type: 'from-the-future' } as unknown as ResilienceEvent)).toBe('mcp-resilience event from-the-future');
  });
});
