import type { DialectName } from '../dialect-responses.ts';
import type { Fault } from '../faults.ts';
import type { CallExpectation, CheckName, ChurnScenario, WorkloadCall } from './scenario.ts';

const echo = (id: string, expect: CallExpectation = 'ok'): WorkloadCall => ({ id, tool: 'echo', arguments: { text: id }, expect });
const record = (id: string, expect: CallExpectation = 'ok'): WorkloadCall => ({ id, tool: 'record', arguments: { key: id }, expect });
const slow = (id: string, ms: number, expect: CallExpectation = 'ok'): WorkloadCall => ({ id, tool: 'slow', arguments: { ms }, expect });

/** No standalone GET stream (405, as many servers answer): an open stream counts as use, and the session could never go idle. */
const NO_GET: Fault = { kind: 'status', status: 405, httpMethod: 'GET', count: 1000 };
const SESSION_CHECKS: readonly CheckName[] = ['reinitialized', 'replayed-once', 'dead-id-dropped', 'calls-answered', 'no-hang'];

/** A session ended between two calls, said in `dialect`: the next call meets it, and the one after must not. */
function eviction(dialect: DialectName, said: string): ChurnScenario {
  return {
    name: `gone-${dialect}`, title: `the session is evicted; the server says so as ${said}`, revision: '2025-11-25',
    chaos: { dialect },
    steps: [{ calls: [echo('c1')] }, { before: [{ kind: 'evict', session: 'all' }], calls: [echo('c2')] }, { calls: [echo('c3')] }],
    checks: SESSION_CHECKS,
  };
}

/**
 * A long pause ended the session and the access token together; the server says which first
 * (`order`). The call that meets them must be answered after a token refresh and one new session.
 */
function credentials(order: 'auth-first' | 'session-first', title: string): ChurnScenario {
  return {
    name: order, title, revision: '2025-11-25', chaos: {}, auth: order,
    steps: [{ calls: [echo('c1')] }, { before: 'expire-session-and-token', calls: [echo('c2')] }, { calls: [echo('c3')] }],
    checks: ['token-refreshed', 'reinitialized', 'one-initialize', 'replayed-once', 'dead-id-dropped', 'calls-answered', 'no-hang'],
  };
}

/** A status before the second call; the third goes on the same session. */
function status(name: string, title: string, fault: (now: Date) => Fault, expect: CallExpectation, checks: readonly CheckName[]): ChurnScenario {
  return {
    name, title, revision: '2025-11-25', chaos: {},
    steps: [{ calls: [echo('c1')] }, { before: (now) => [fault(now)], calls: [echo('c2', expect)] }, { calls: [echo('c3')] }],
    checks: [...checks, 'calls-answered', 'no-hang'],
  };
}

/**
 * `rate-limit-date`'s date: the whole second at least three seconds after the call arrived. Its
 * answer is held until two seconds before it ({@link twoSecondsBefore}), so the date lies exactly
 * 2 s ahead of the answer wherever in the second the call arrived (dates have whole seconds).
 */
const dateAhead = (now: Date) => new Date(Math.ceil(now.getTime() / 1000) * 1000 + 3000);
const twoSecondsBefore = (now: Date) => new Date(dateAhead(now).getTime() - 2000);

/**
 * The default scenarios of `mcp-chaos check`, in the order they are reported. Each runs on a
 * chaos server of its own; the calls are those of the workload (`echo` c1, c2, … as text).
 *
 * @example
 * SCENARIOS.map((s) => s.name); // ['restart', 'idle-expiry', …]
 */
export const SCENARIOS: readonly ChurnScenario[] = [
  {
    name: 'restart', title: 'the server restarts between two calls (every session gone, same port)', revision: '2025-11-25', chaos: {},
    steps: [{ calls: [echo('c1')] }, { before: [{ kind: 'restart' }], calls: [record('c2')] }, { calls: [echo('c3')] }],
    checks: [...SESSION_CHECKS, 'ran-once'],
  },
  {
    name: 'idle-expiry', title: 'the session expires while the client is idle (no standalone stream; the seed\'s 404 -32000)', revision: '2025-11-25',
    chaos: { dialect: 'amdahl', faults: [NO_GET] },
    steps: [{ calls: [echo('c1')] }, { pauseMs: 300, before: 'expire-idle', calls: [echo('c2')] }, { calls: [echo('c3')] }],
    checks: SESSION_CHECKS,
  },
  {
    name: 'busy-eviction', title: 'the session is evicted while a slow call is in flight on it', revision: '2025-11-25', chaos: {},
    steps: [{ calls: [echo('c1')] }, { during: { afterMs: 250, faults: [{ kind: 'evict', session: 'all' }] }, calls: [slow('c2', 800, 'settled')] }, { calls: [echo('c3')] }],
    checks: ['reinitialized', 'dead-id-dropped', 'calls-answered', 'no-hang'],
  },
  eviction('amdahl', '404 -32000 with data.reason'),
  eviction('typescript-sdk', '404 -32001 (the TypeScript SDK)'),
  eviction('python-sdk', '404 -32600 (the Python SDK)'),
  eviction('go-sdk', '404 plain text (the Go SDK)'),
  eviction('express-400', '400 -32000 "No valid session ID" (the SDK\'s express example)'),
  eviction('server-everything', '400 -32000 without an id (server-everything)'),
  eviction('typescript-sdk-uninitialized', '400 -32000 "Server not initialized" (one transport per process)'),
  {
    name: 'renegotiation-404', title: 'a 404 on a session-carrying call: a fresh initialize without the id, then the same call in the new session', revision: '2025-11-25',
    chaos: {}, steps: [{ calls: [echo('c1')] }, { before: [{ kind: 'evict', session: 'all' }], calls: [echo('c2')] }],
    checks: ['reinitialized', 'continued-in-new-session', 'calls-answered'],
  },
  {
    name: 'concurrent-dead-session', title: '20 calls at once on a session that is gone', revision: '2025-11-25', chaos: {},
    steps: [
      { calls: [echo('c0')] },
      { before: [{ kind: 'evict', session: 'all' }], calls: Array.from({ length: 20 }, (_, i) => echo(`c${i + 1}`)) },
    ],
    checks: ['reinitialized', 'one-initialize', 'replayed-once', 'dead-id-dropped', 'calls-answered', 'no-hang'],
  },
  status('rate-limit-seconds', '429 with Retry-After: 1', () => ({ kind: 'status', status: 429, retryAfter: '1' }), 'ok', ['waited-retry-after', 'session-kept']),
  {
    name: 'rate-limit-date', title: '429 with Retry-After as an HTTP-date 2 s ahead of the answer', revision: '2025-11-25', chaos: {},
    steps: [
      { calls: [echo('c1')] },
      { before: (now) => [{ kind: 'status', status: 429, retryAfter: dateAhead(now).toUTCString() }], answerAt: twoSecondsBefore, calls: [echo('c2')] },
      { calls: [echo('c3')] },
    ],
    checks: ['waited-retry-after', 'session-kept', 'calls-answered', 'no-hang'],
  },
  status('unavailable-503', '503 with Retry-After: 1', () => ({ kind: 'status', status: 503, retryAfter: '1' }), 'ok', ['waited-retry-after', 'session-kept']),
  status('hostile-retry-after', '503 with a Retry-After of 3 billion years', () => ({ kind: 'status', status: 503, retryAfter: '99999999999999999' }), 'settled',
    ['retry-after-capped']),
  status('forbidden-403', '403: the server\'s answer, not churn', () => ({ kind: 'status', status: 403, body: 'forbidden' }), 'fail', ['no-4xx-retry', 'session-kept']),
  status('client-error-400', 'a plain 400 that is not a "session gone" spelling', () => ({ kind: 'status', status: 400, body: 'bad request' }), 'fail',
    ['no-4xx-retry', 'session-kept']),
  {
    name: 'stream-dropped-resumable', title: 'a slow call\'s response stream drops after an event with an id', revision: '2025-11-25', chaos: {},
    steps: [{ calls: [echo('c1')] }, { before: [{ kind: 'drop-stream', afterEvents: 1, eventIds: true, rpcMethod: 'tools/call' }], calls: [slow('c2', 200)] }],
    checks: ['resumed', 'calls-answered', 'no-hang', 'session-kept'],
  },
  {
    name: 'stream-dropped-no-ids', title: 'a slow call\'s response stream drops and its events carry no ids (cannot be resumed)', revision: '2025-11-25', chaos: {},
    // c3 after it: a client that fails c2 fast, as it may, shows on c3 that it kept its session.
    steps: [
      { calls: [echo('c1')] },
      { before: [{ kind: 'drop-stream', afterEvents: 1, eventIds: false, rpcMethod: 'tools/call' }], calls: [slow('c2', 200, 'settled')] },
      { calls: [echo('c3')] },
    ],
    checks: ['calls-answered', 'no-hang', 'session-kept'],
  },
  {
    name: 'outcome-unknown-record', title: 'the stream of a non-idempotent call drops after it ran, with no ids: its outcome is unknown', revision: '2025-11-25', chaos: {},
    steps: [
      { calls: [echo('c1')] },
      { before: [{ kind: 'drop-stream', afterEvents: 1, eventIds: false, rpcMethod: 'tools/call' }], calls: [record('c2', 'settled')] },
      { calls: [echo('c3')] },
    ],
    checks: ['ran-once', 'calls-answered', 'no-hang'],
  },
  {
    name: 'stream-keepalive', title: 'the server expires sessions idle 1 s; the client pauses 1.5 s, its standalone stream open', revision: '2025-11-25',
    // The budget from the first call on: a client slow to connect is not expired before it could open its stream.
    chaos: {},
    steps: [{ before: [{ kind: 'idle-budget', ms: 1000 }], calls: [echo('c1')] }, { pauseMs: 1500, calls: [echo('c2')] }],
    checks: ['session-kept', 'calls-answered', 'no-hang'],
  },
  credentials('auth-first', 'session and access token expired together; the bearer check comes first: 401, then 404 after the refresh'),
  credentials('session-first', 'session and access token expired together; the session lookup comes first: 404, then 401 on the new initialize'),
  {
    name: 'stateless-2026', title: 'revision 2026-07-28: the server restarts and evicts, and no session logic may run', revision: '2026-07-28',
    chaos: { mode: 'modern' },
    steps: [{ calls: [echo('c1')] }, { before: [{ kind: 'restart' }], calls: [echo('c2')] }],
    checks: ['stateless-2026', 'calls-answered'],
  },
  {
    name: 'not-found-2026', title: 'revision 2026-07-28: a 404 means "unknown method", never "session gone"', revision: '2026-07-28',
    chaos: { mode: 'modern' },
    steps: [
      { calls: [echo('c1')] },
      { before: [{ kind: 'status', status: 404, rpcMethod: 'tools/call', body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found"}}' }], calls: [echo('c2', 'fail')] },
      { calls: [echo('c3')] },
    ],
    checks: ['stateless-2026', 'no-4xx-retry', 'calls-answered'],
  },
];
