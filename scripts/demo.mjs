// The demo, for as long as the project is its pure core: the seed contract's scenarios put
// through classify → diagnose → decide, narrated. (The engine's live demo against the chaos
// server replaces this when @mcp-resilience/client lands.)
import {
  advance, classify, decide, diagnoseLoss, FRESH_CALL, createRetryPolicy, noJitter,
} from '../packages/core/dist/index.js';

const MIN = 60_000;
const policy = createRetryPolicy({ backoff: { jitter: noJitter }, retryAfterCapMs: 30_000 });
const seedBody = (uptime) => JSON.stringify({
  jsonrpc: '2.0', id: 12,
  error: { code: -32000, message: 'Session not found. Please reinitialize.',
    data: { reason: 'session_not_found', action: 'reinitialize_and_replay_once', server_uptime_seconds: uptime } },
});
const say = (text) => console.log(`  ${text}`);
const show = (label, value) => say(`${label.padEnd(10)} ${JSON.stringify(value)}`);
const scene = (title) => console.log(`\n${title}`);

function step(observation, { call = FRESH_CALL, operation = { method: 'tools/call', toolName: 'search' }, using = policy } = {}) {
  const verdict = classify(observation);
  const action = decide({ verdict, call, operation, revision: observation.revision, policy: using, nowMs: 0, random: 0 });
  show('verdict', verdict);
  show('action', action);
  return advance(call, action);
}

const legacy = { revision: '2025-11-25', sessionIdSent: true, httpMethod: 'POST', rpcMethod: 'tools/call' };

scene('1. A deploy: the next call meets the seed contract\'s 404 -32000 (server up 47 s, session 30 min old)');
let call = step({ kind: 'http', status: 404, body: seedBody(47), ...legacy });
show('diagnosis', diagnoseLoss({ sessionStartedAtMs: 0, lastActivityAtMs: 29 * MIN, failedAtMs: 30 * MIN, serverUptimeSeconds: 47 }));
say('→ a new session, the call sent once more. Nothing on the client side to fix.');

scene('2. The replay meets a dead session again');
step({ kind: 'http', status: 404, body: seedBody(48), ...legacy }, { call });
say('→ no loop: the caller gets SESSION_LOST.');

scene('3. Server up a day, session lost 2 s after its last call (busy)');
show('diagnosis', diagnoseLoss({ sessionStartedAtMs: 0, lastActivityAtMs: 30 * MIN - 2000, failedAtMs: 30 * MIN, serverUptimeSeconds: 86_400 }));
say('→ evicted while busy: a suspected server bug, worth reporting with the trace.');

scene('4. Rate limited: 429 with Retry-After: 2, then a hostile Retry-After of ten years');
step({ kind: 'http', status: 429, retryAfter: '2', ...legacy });
step({ kind: 'http', status: 429, retryAfter: String(10 * 365 * 86_400), ...legacy });
say('→ the same session after the server\'s wait; a wait above the cap is a typed error, not a hang.');

scene('5. A proxy\'s 502: on a payment (not safe to repeat), then on a search the app vouches for');
const badGateway = { kind: 'http', status: 502, body: '<html>Bad Gateway</html>', ...legacy };
step(badGateway, { operation: { method: 'tools/call', toolName: 'pay' } });
step(badGateway, { using: createRetryPolicy({ backoff: { jitter: noJitter }, tools: { readOnlyTools: ['search'] } }) });
say('→ the payment fails at once with OUTCOME_UNKNOWN; the trusted read-only search is sent again under a new id.');

scene('6. 2026-07-28 has no sessions: a 404 is "method not found", never a loss');
step({ kind: 'http', status: 404, body: '{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found"}}',
  revision: '2026-07-28', sessionIdSent: false, httpMethod: 'POST', rpcMethod: 'tools/call' });
say('→ delivered as it is: no re-initialization loop.');
