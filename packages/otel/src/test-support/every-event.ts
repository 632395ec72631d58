import type { EventType, ResilienceEvent } from '@mcp-resilience/core';

/**
 * One event of every type the engine emits, with every optional field set: a type added to
 * core and missing here fails to compile, so the mapping tests cover it.
 *
 * @example
 * for (const event of Object.values(EVERY_EVENT)) listener(event);
 */
export const EVERY_EVENT: { readonly [T in EventType]: Extract<ResilienceEvent, { type: T }> } = {
  'session-started': { type: 'session-started', session: 1, revision: '2025-11-25', atMs: 0 },
  'session-lost': {
    type: 'session-lost', session: 1, dialect: 'amdahl', method: 'tools/call', cause: 'evicted-while-busy', suspectedServerBug: true,
    sessionAgeMs: 9_000, idleMs: 10, serverUptimeSeconds: 3_600, atMs: 100,
    report: { sessionAgeMs: 9_000, idleMs: 10, serverUptimeSeconds: 3_600, busy: { because: 'recent-exchange', windowMs: 60_000 }, exchanges: [{ method: 'tools/call', status: 404, offsetMs: 9_000 }] },
  },
  'session-reinitialized': { type: 'session-reinitialized', from: 1, to: 2, reason: 'lost', atMs: 130 },
  'session-changed': {
    type: 'session-changed', from: 2, to: 3, revision: { from: '2025-06-18', to: '2025-11-25' }, capabilities: ['tools', 'resources'], atMs: 140,
  },
  'state-restored': { type: 'state-restored', session: 2, subscriptions: 2, logLevel: 'debug', atMs: 150 },
  replayed: { type: 'replayed', session: 2, method: 'tools/call', atMs: 160 },
  'backed-off': { type: 'backed-off', method: 'tools/call', verdict: 'rate-limited', status: 429, attempt: 1, delayMs: 250, atMs: 170 },
  resumed: { type: 'resumed', method: 'tools/call', attempt: 1, delayMs: 100, atMs: 180 },
  reissued: { type: 'reissued', method: 'resources/read', attempt: 2, delayMs: 400, atMs: 190 },
  'server-wait-started': { type: 'server-wait-started', method: 'tools/call', limitMs: 20_000, atMs: 191 },
  'server-wait-ended': { type: 'server-wait-ended', method: 'tools/call', outcome: 'reachable', attempts: 3, waitedMs: 700, atMs: 192 },
  'gave-up': { type: 'gave-up', method: 'tools/call', code: 'OUTCOME_UNKNOWN', atMs: 200 },
  'task-survived': { type: 'task-survived', task: 1, from: 1, session: 2, atMs: 210 },
  'task-lost': { type: 'task-lost', task: 2, session: 1, method: 'tasks/get', cause: 'server-restarted', mayStillRun: false, recreatable: true, atMs: 220 },
  'unrecognised-answer': { type: 'unrecognised-answer', method: 'tools/list', status: 400, code: -32000, message: 'Bad Request: sid-b38c730e unknown', atMs: 230 },
};
