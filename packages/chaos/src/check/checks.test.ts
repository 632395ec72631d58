import { describe, expect, it } from 'vitest';
import { SCENARIOS } from './catalogue.ts';
import { scoreChecks } from './checks.ts';
import type { CallOutcome } from './outcome-lines.ts';
import { recoveryCost } from './recovery-cost.ts';
import type { ScenarioEvidence } from './run-scenario.ts';
import { callKey, CHECK_NAMES, type CheckName, type ChurnScenario } from './scenario.ts';
import type { WireRecord } from './wire-tap.ts';

// Recorded wire ledgers, written out by hand: each check is shown passing on a client that does
// the right thing, and failing on a ledger that violates it.
const scenario = (name: string): ChurnScenario => SCENARIOS.find((s) => s.name === name)!;

function ledger(...rows: (Omit<WireRecord, 'seq' | 'connection'> & { connection?: number })[]): WireRecord[] {
  // An answer 200 on a stream that did not break carried its JSON-RPC response, unless a row says
  // otherwise; each request came on a connection of its own, unless a row names one.
  return rows.map((row, i) => ({ seq: i + 1, connection: 100 + i, endMs: row.startMs + 5, status: 200, ...((row.status ?? 200) === 200 && !row.broken ? { answered: true } : {}), ...row }));
}
const init = (startMs: number, minted: string, more: Partial<WireRecord> = {}) => ({ startMs, httpMethod: 'POST', rpcMethod: 'initialize', minted, ...more });
const notified = (startMs: number, session: string, connection?: number) =>
  ({ startMs, httpMethod: 'POST', rpcMethod: 'notifications/initialized', session, status: 202, ...(connection === undefined ? {} : { connection }) });
const call = (startMs: number, id: string, session: string | undefined, more: Partial<WireRecord> = {}, tool = 'echo', args: object = { text: id }) =>
  ({ startMs, httpMethod: 'POST', rpcMethod: 'tools/call', call: callKey(tool, args), ...(session ? { session } : {}), ...more });
const ok = (id: string, atMs: number): CallOutcome => ({ id, ok: true, text: id, atMs });
const failed = (id: string, atMs: number): CallOutcome => ({ id, ok: false, error: 'Session not found', atMs });

function evidence(name: string, wire: WireRecord[], outcomes: readonly CallOutcome[], more: Partial<ScenarioEvidence> = {}): ScenarioEvidence {
  return { scenario: name, wire, ledger: {}, outcomes, callTimeoutMs: 4000, ...more };
}
function verdict(name: string, check: CheckName, e: ScenarioEvidence) {
  const base = scenario(name);
  return scoreChecks({ ...base, checks: [check] }, e)[0]!;
}

/** A client that re-initializes once after the eviction and replays c2 once: every session check passes. */
const recovered = evidence('gone-typescript-sdk', ledger(
  init(0, 'A'), notified(10, 'A'), call(20, 'c1', 'A'), call(30, 'c2', 'A', { status: 404 }),
  init(40, 'B'), notified(50, 'B'), call(60, 'c2', 'B', { minted: 'B' }), call(70, 'c3', 'B'),
), [ok('c1', 26), ok('c2', 66), ok('c3', 76)]);

/** The plain SDK: it keeps the dead id, and every call after the eviction fails. */
const plain = evidence('gone-typescript-sdk', ledger(
  init(0, 'A'), notified(10, 'A'), call(20, 'c1', 'A'), call(30, 'c2', 'A', { status: 404 }), call(70, 'c3', 'A', { status: 404 }),
), [ok('c1', 26), failed('c2', 36), failed('c3', 76)]);

describe('the session checks, on a recorded eviction', () => {
  it.each(['reinitialized', 'continued-in-new-session', 'replayed-once', 'dead-id-dropped', 'one-initialize', 'calls-answered', 'no-hang'] as const)(
    '%s passes on a client that re-initialized and replayed once', (check) => {
      expect(verdict('gone-typescript-sdk', check, recovered)).toMatchObject({ passed: true, required: true });
    });

  it('reinitialized fails when no initialize follows the loss, or when it carries the dead id', () => {
    expect(verdict('gone-typescript-sdk', 'reinitialized', plain)).toMatchObject({ passed: false, detail: expect.stringContaining('no initialize after request 4') });
    const carrying = evidence('gone-typescript-sdk', ledger(init(0, 'A'), call(30, 'c2', 'A', { status: 404 }), init(40, 'B', { session: 'A', status: 404 })), []);
    expect(verdict('gone-typescript-sdk', 'reinitialized', carrying)).toMatchObject({ passed: false, detail: 'request 3 (POST initialize) carried a session id' });
  });

  it('continued-in-new-session fails when the call is not sent again on the session the new initialize opened', () => {
    const stale = evidence('renegotiation-404', ledger(init(0, 'A'), call(30, 'c2', 'A', { status: 404 }), init(40, 'B'), call(60, 'c2', undefined)), []);
    expect(verdict('renegotiation-404', 'continued-in-new-session', stale)).toMatchObject({ passed: false, detail: 'c2 was sent again without the new session id' });
  });

  it('replayed-once fails when a call is sent twice after it met the dead session', () => {
    const twice = evidence('gone-typescript-sdk', ledger(init(0, 'A'), call(30, 'c2', 'A', { status: 404 }), init(40, 'B'), call(60, 'c2', 'B', { status: 500 }), call(70, 'c2', 'B')), []);
    expect(verdict('gone-typescript-sdk', 'replayed-once', twice)).toMatchObject({ passed: false, detail: 'c2 was sent 2 times after it met the dead session' });
  });

  it('dead-id-dropped fails when the dead id comes back in the next step, or after the new session answered', () => {
    expect(verdict('gone-typescript-sdk', 'dead-id-dropped', plain)).toMatchObject({ passed: false,
      detail: 'request 5 (POST tools/call) carried a session id already answered 404 (request 4 (POST tools/call)), as a call of step 3, begun once c2 had settled' });
    const after = evidence('concurrent-dead-session', ledger(init(0, 'A'), call(20, 'c0', 'A'), call(30, 'c1', 'A', { status: 404 }), call(31, 'c2', 'A', { status: 404 }),
      init(40, 'B'), notified(46, 'B', 9), { startMs: 52, httpMethod: 'GET', session: 'A', status: 404, connection: 9 }), []);
    expect(verdict('concurrent-dead-session', 'dead-id-dropped', after)).toMatchObject({ passed: false, requests: [3, 5, 6, 7],
      detail: 'request 7 (GET) carried a session id already answered 404 (request 3 (POST tools/call)), behind request 6 (POST notifications/initialized) on its connection, answered after request 5 (POST initialize) showed the client knew of the loss' });
  });

  describe('dead-id-dropped judges by the order the wire proves, not by a clock', () => {
    // c2 met the eviction on connection 1; B is the session the client opened after it.
    const around = (extra: Omit<WireRecord, 'seq' | 'connection'> & { connection?: number }) => evidence('gone-typescript-sdk', ledger(
      init(0, 'A', { connection: 1 }), call(20, 'c1', 'A', { connection: 1 }), call(30, 'c2', 'A', { status: 404, endMs: 35, connection: 1 }),
      extra, init(40, 'B', { connection: 1 }), notified(50, 'B'), call(60, 'c2', 'B', { connection: 1 }), call(70, 'c3', 'B', { connection: 1 })), []);
    const ping = { startMs: 36, httpMethod: 'POST', rpcMethod: 'ping', session: 'A', status: 404 };

    it('fails a ping on the dead id sent on the connection that had carried the 404, however soon', () => {
      expect(verdict('gone-typescript-sdk', 'dead-id-dropped', around({ ...ping, startMs: 31, connection: 1 }))).toMatchObject({ passed: false, requests: [3, 4],
        detail: 'request 4 (POST ping) carried a session id already answered 404 (request 3 (POST tools/call)), on the connection that had carried that answer' });
    });

    it('passes a request on another connection that nothing shows came after the 404, even one that arrived after its answer ended and after the new initialize', () => {
      // The SDK's GET stream reconnecting on its timer, sent before the client had read the loss: seen arriving late on a loaded machine.
      const crossing = evidence('gone-typescript-sdk', ledger(init(0, 'A', { connection: 1 }), call(30, 'c2', 'A', { status: 404, endMs: 35, connection: 1 }),
        init(40, 'B', { connection: 1 }), { startMs: 44, httpMethod: 'GET', session: 'A', status: 404, connection: 2 }, call(60, 'c2', 'B', { connection: 1 })), []);
      expect(verdict('gone-typescript-sdk', 'dead-id-dropped', crossing)).toMatchObject({ passed: true,
        detail: 'no request carried a dead session id after the client read its loss (1 lost; 1 request on another connection may have crossed its answer)' });
    });

    it('fails a request on another connection once that connection had carried the new session', () => {
      expect(verdict('gone-typescript-sdk', 'dead-id-dropped', evidence('gone-typescript-sdk', ledger(init(0, 'A', { connection: 1 }), call(30, 'c2', 'A', { status: 404, connection: 1 }),
        init(40, 'B', { connection: 2 }), { startMs: 44, httpMethod: 'GET', session: 'A', status: 404, connection: 2 }), [])))
        .toMatchObject({ passed: false, detail: expect.stringMatching(/request 4 \(GET\) .*, behind request 3 \(POST initialize\) on its connection, answered after it showed the client knew of the loss$/) });
    });

    it('fails the failed call sent twice on the dead id in busy-eviction', () => {
      const twice = evidence('busy-eviction', ledger(init(0, 'A'), call(20, 'c1', 'A'), call(30, 'c2', 'A', { broken: true, endMs: 300 }, 'slow', { ms: 800 }),
        call(310, 'c2', 'A', { status: 404, endMs: 315, connection: 7 }, 'slow', { ms: 800 }), call(320, 'c2', 'A', { status: 404, connection: 7 }, 'slow', { ms: 800 }), init(330, 'B')), []);
      expect(verdict('busy-eviction', 'dead-id-dropped', twice)).toMatchObject({ passed: false, detail: expect.stringContaining('request 5 (POST tools/call)') });
      const elsewhere = evidence('busy-eviction', ledger(init(0, 'A'), call(20, 'c1', 'A'), call(310, 'c2', 'A', { status: 404, endMs: 315 }, 'slow', { ms: 800 }),
        call(320, 'c2', 'A', { status: 404 }, 'slow', { ms: 800 }), init(330, 'B')), []);
      expect(verdict('busy-eviction', 'dead-id-dropped', elsewhere)).toMatchObject({ passed: false,
        detail: 'request 4 (POST tools/call) carried a session id already answered 404 (request 3 (POST tools/call)), sending c2 again after request 3 (POST tools/call) was answered 404' });
    });

    it('cannot see a ping on another connection before the new session: nothing on the wire orders it after the 404', () => {
      // The limit of a fair check: such a ping is the same on the wire as one a timer sent as the 404 came back.
      expect(verdict('gone-typescript-sdk', 'dead-id-dropped', around({ ...ping, connection: 2 }))).toMatchObject({ passed: true, detail: expect.stringContaining('1 request on another connection may have crossed its answer') });
    });

    it("passes a DELETE of the old session, and a call of the loss's step already on its way", () => {
      expect(verdict('gone-typescript-sdk', 'dead-id-dropped', around({ startMs: 45, httpMethod: 'DELETE', session: 'A', status: 404, connection: 1 }))).toMatchObject({ passed: true });
      const concurrent = evidence('concurrent-dead-session', ledger(init(0, 'A', { connection: 1 }), call(30, 'c1', 'A', { status: 404, connection: 1 }),
        call(36, 'c2', 'A', { status: 404, connection: 1 }), init(40, 'B', { connection: 1 })), []);
      expect(verdict('concurrent-dead-session', 'dead-id-dropped', concurrent)).toMatchObject({ passed: true });
    });
  });

  it('a scenario whose fault was never met fails every check that depends on it as "did not run as written"', () => {
    // c2 went out without the session (a client that opened a new one for each call): it never met the eviction.
    const dodged = evidence('gone-typescript-sdk', ledger(init(0, 'A'), call(20, 'c1', 'A'), init(25, 'B'), call(30, 'c2', 'B'), call(40, 'c3', 'B')),
      [ok('c1', 26), ok('c2', 36), ok('c3', 46)]);
    const checks = scoreChecks(scenario('gone-typescript-sdk'), dodged);
    expect(checks.filter((c) => !c.passed).map((c) => [c.name, c.detail])).toEqual(['reinitialized', 'replayed-once', 'dead-id-dropped'].map((name) =>
      [name, 'did not run as written: no request met the fault of step 2 (none was answered by it)']));
    expect(checks.find((c) => c.name === 'dead-id-dropped')?.hint).toMatch(/^Forget the session id/);
  });

  it('one-initialize fails when concurrent calls open a session each', () => {
    const storm = evidence('concurrent-dead-session', ledger(init(0, 'A'), call(30, 'c1', 'A', { status: 404 }), call(31, 'c2', 'A', { status: 404 }), init(40, 'B'), init(41, 'C')), []);
    expect(verdict('concurrent-dead-session', 'one-initialize', storm)).toMatchObject({ passed: false, detail: '2 initialize requests after the loss' });
  });
});

describe('the other checks', () => {
  it('waited-retry-after fails on a retry sooner than Retry-After, and passes on one that waited', () => {
    const early = evidence('rate-limit-seconds', ledger(init(0, 'A'), call(30, 'c2', 'A', { status: 429, retryAfter: '1', retryAfterMs: 1000 }), call(135, 'c2', 'A')), []);
    expect(verdict('rate-limit-seconds', 'waited-retry-after', early)).toMatchObject({ passed: false, detail: 'c2 sent again 105 ms after a 429 asking for 1000 ms' });
    const waited = evidence('rate-limit-seconds', ledger(init(0, 'A'), call(30, 'c2', 'A', { status: 429, retryAfter: '1', retryAfterMs: 1000 }), call(1040, 'c2', 'A')), []);
    expect(verdict('rate-limit-seconds', 'waited-retry-after', waited)).toMatchObject({ passed: true });
    // A loaded server may note the 429's end long after the client read it: the client waited all the same.
    const notedLate = evidence('rate-limit-seconds', ledger(init(0, 'A'), call(30, 'c2', 'A', { status: 429, retryAfter: '1', retryAfterMs: 1000, endMs: 600 }), call(1040, 'c2', 'A')), []);
    expect(verdict('rate-limit-seconds', 'waited-retry-after', notedLate)).toMatchObject({ passed: true });
  });

  it('retry-after-capped fails on a client that waits a hostile Retry-After until its timeout', () => {
    const wire = ledger(init(0, 'A'), call(30, 'c2', 'A', { status: 503, retryAfter: '99999999999999999', retryAfterMs: 1e20 }));
    expect(verdict('hostile-retry-after', 'retry-after-capped', evidence('hostile-retry-after', wire, [failed('c2', 3950)])))
      .toMatchObject({ passed: false, detail: 'c2 waited 3915 ms after the hostile answer (90 % of the call timeout is 3600 ms)' });
    expect(verdict('hostile-retry-after', 'retry-after-capped', evidence('hostile-retry-after', wire, [failed('c2', 40)]))).toMatchObject({ passed: true });
  });

  it('no-4xx-retry fails when a call refused with 403 is sent again', () => {
    const retried = evidence('forbidden-403', ledger(init(0, 'A'), call(30, 'c2', 'A', { status: 403 }), call(40, 'c2', 'A', { status: 403 })), []);
    expect(verdict('forbidden-403', 'no-4xx-retry', retried)).toMatchObject({ passed: false, detail: 'c2 was sent again after 403' });
  });

  it('ran-once fails when the execution ledger counts a record call twice', () => {
    const rec = (startMs: number, more: Partial<WireRecord>) => call(startMs, 'c2', 'A', more, 'record', { key: 'c2' });
    const wire = ledger(init(0, 'A'), call(20, 'c1', 'A'), rec(30, { broken: true }), rec(300, {}));
    expect(verdict('outcome-unknown-record', 'ran-once', evidence('outcome-unknown-record', wire, [], { ledger: { c2: 2 } })))
      .toMatchObject({ passed: false, detail: 'record c2 ran 2 times' });
    expect(verdict('outcome-unknown-record', 'ran-once', evidence('outcome-unknown-record', wire, [], { ledger: { c2: 1 } })))
      .toMatchObject({ passed: true, detail: 'the execution ledger counts record c2 1×' });
    // Nothing ran: nothing proves the call ran once.
    expect(verdict('outcome-unknown-record', 'ran-once', evidence('outcome-unknown-record', wire, [], { ledger: {} }))).toMatchObject({ passed: false });
  });

  it('resumed fails when a dropped stream is re-sent instead of resumed, and passes on GET + Last-Event-ID', () => {
    const slow = (startMs: number, more: Partial<WireRecord>) => call(startMs, 'c2', 'A', more, 'slow', { ms: 200 });
    const resent = evidence('stream-dropped-resumable', ledger(init(0, 'A'), slow(30, { broken: true }), slow(300, {})), []);
    expect(verdict('stream-dropped-resumable', 'resumed', resent)).toMatchObject({ passed: false, detail: 'no GET with Last-Event-ID on the session after the drop (c2 sent again instead)' });
    const resumed = evidence('stream-dropped-resumable', ledger(init(0, 'A'), slow(30, { broken: true }), { startMs: 300, httpMethod: 'GET', session: 'A', lastEventId: true }), []);
    expect(verdict('stream-dropped-resumable', 'resumed', resumed)).toMatchObject({ passed: true });
  });

  it('stateless-2026 fails on an initialize or a session id on 2026-07-28', () => {
    expect(verdict('stateless-2026', 'stateless-2026', evidence('stateless-2026', ledger(call(0, 'c1', undefined), init(10, 'A'), call(20, 'c2', undefined)), [])))
      .toMatchObject({ passed: false, detail: 'request 2 (POST initialize) is an initialize' });
    expect(verdict('stateless-2026', 'stateless-2026', evidence('stateless-2026', ledger(call(0, 'c1', 'A'), call(20, 'c2', 'A')), [])))
      .toMatchObject({ passed: false, detail: 'request 1 (POST tools/call) carried a session id' });
    expect(verdict('stateless-2026', 'stateless-2026', evidence('stateless-2026', ledger(call(0, 'c1', undefined), call(20, 'c2', undefined)), [])))
      .toMatchObject({ passed: true, requests: [1] });
  });

  it('session-kept fails on a new session without a loss (a 429 is not a session loss), and is optional unless strict', () => {
    const churned = evidence('rate-limit-seconds', ledger(init(0, 'A'), call(20, 'c1', 'A'), call(30, 'c2', 'A', { status: 429 }), init(40, 'B')), []);
    expect(verdict('rate-limit-seconds', 'session-kept', churned)).toMatchObject({ passed: false, required: false });
    expect(scoreChecks({ ...scenario('rate-limit-seconds'), checks: ['session-kept'] }, churned, true)[0]).toMatchObject({ passed: false, required: true });
  });

  it('calls-answered fails on a call that should have been answered, one that should have failed, and a missing outcome', () => {
    const e = evidence('forbidden-403', ledger(init(0, 'A'), call(5, 'c1', 'A'), call(15, 'c2', 'A', { status: 403 }), call(25, 'c3', 'A')), [failed('c1', 10), ok('c2', 20)]);
    expect(verdict('forbidden-403', 'calls-answered', e)).toMatchObject({
      passed: false, detail: 'c1 failed (Session not found); c2 was answered though the server refused it; c3: no outcome printed',
    });
    // An outcome is no proof: a call never sent, an answer that never came whole, or text other than the echo fails.
    const claimed = evidence('forbidden-403', ledger(init(0, 'A'), call(5, 'c1', 'A', { broken: true }), call(15, 'c2', 'A', { status: 403 })),
      [ok('c1', 10), failed('c2', 20), ok('c3', 30)]);
    expect(verdict('forbidden-403', 'calls-answered', claimed)).toMatchObject({
      passed: false, detail: 'c1 printed an answer, but none reached it whole on the wire (request 2 (POST tools/call) → broken); c3 was never sent (yet printed an answer)',
    });
    const echoed = evidence('forbidden-403', ledger(init(0, 'A'), call(5, 'c1', 'A'), call(15, 'c2', 'A', { status: 403 }), call(25, 'c3', 'A')),
      [{ id: 'c1', ok: true, text: 'ok', atMs: 10 }, failed('c2', 20), ok('c3', 30)]);
    expect(verdict('forbidden-403', 'calls-answered', echoed)).toMatchObject({ passed: false, detail: 'c1 printed "ok", not the echoed "c1"' });
  });

  it('no-hang fails on a call that ended only at its timeout', () => {
    const e = evidence('stream-dropped-no-ids', ledger(init(0, 'A'), call(10, 'c1', 'A'), call(30, 'c2', 'A', { broken: true }, 'slow', { ms: 200 })), [ok('c1', 16), failed('c2', 3900)]);
    expect(verdict('stream-dropped-no-ids', 'no-hang', e)).toMatchObject({ passed: false, detail: 'c2 ended 3870 ms after it was sent (the call timeout is 4000 ms)' });
    const unsent = evidence('stream-dropped-no-ids', ledger(init(0, 'A'), call(10, 'c1', 'A')), [ok('c1', 16), failed('c2', 20)]);
    expect(verdict('stream-dropped-no-ids', 'no-hang', unsent)).toMatchObject({ passed: false, detail: 'c2 was never sent' });
    // Stamped by the wire: an answer that ended at 16 ms is not a hang because its line came at exit (a client whose output is buffered).
    const buffered = evidence('stream-dropped-no-ids', ledger(init(0, 'A'), call(10, 'c1', 'A'), call(30, 'c2', 'A', {}, 'slow', { ms: 200 }), call(40, 'c3', 'A')),
      [ok('c1', 3950), ok('c2', 3950), ok('c3', 3950)]);
    expect(verdict('stream-dropped-no-ids', 'no-hang', buffered)).toMatchObject({ passed: true });
  });

  it('token-refreshed fails when no request meets the expired token, or none carries a new one after the 401', () => {
    const authCall = (startMs: number, id: string, session: string | undefined, token: string, status: number) => call(startMs, id, session, { token, status });
    const stuck = evidence('auth-first', ledger(init(0, 'A', { token: 't1' }), authCall(20, 'c1', 'A', 't1', 200), authCall(30, 'c2', 'A', 't1', 401), authCall(40, 'c3', 'A', 't1', 401)), []);
    expect(verdict('auth-first', 'token-refreshed', stuck)).toMatchObject({ passed: false, detail: 'no request carried a new token after request 3 (POST tools/call) was answered 401' });
    const untouched = evidence('auth-first', ledger(init(0, 'A', { token: 't1' }), authCall(20, 'c1', 'A', 't1', 200), authCall(30, 'c2', 'A', 't1', 200)), []);
    expect(verdict('auth-first', 'token-refreshed', untouched)).toMatchObject({ passed: false, detail: expect.stringContaining('did not run as written') });
    const refreshed = evidence('session-first', ledger(init(0, 'A', { token: 't1' }), authCall(20, 'c1', 'A', 't1', 200), authCall(30, 'c2', 'A', 't1', 404),
      init(40, 'B', { token: 't1', status: 401 }), init(50, 'B', { token: 't2' }), authCall(60, 'c2', 'B', 't2', 200)), []);
    expect(verdict('session-first', 'token-refreshed', refreshed)).toMatchObject({ passed: true, detail: 'request 5 (POST initialize) carried a new token (t2) after request 4 (POST initialize) was answered 401' });
  });

  it('one-initialize does not count an initialize refused 401 for its token, and counts a second new session', () => {
    const refusedThenOpened = evidence('session-first', ledger(init(0, 'A', { token: 't1' }), call(30, 'c2', 'A', { status: 404 }), init(40, 'B', { status: 401 }), init(50, 'B')), []);
    expect(verdict('session-first', 'one-initialize', refusedThenOpened)).toMatchObject({ passed: true, detail: '1 initialize after the loss (and 1 refused 401 for its token)' });
    const twice = evidence('session-first', ledger(init(0, 'A'), call(30, 'c2', 'A', { status: 404 }), init(40, 'B', { status: 401 }), init(50, 'B'), init(60, 'C')), []);
    expect(verdict('session-first', 'one-initialize', twice)).toMatchObject({ passed: false, detail: '2 initialize requests after the loss (and 1 refused 401 for its token)' });
  });

  it('every check is shown failing above', () => {
    const shown = new Set(['token-refreshed', 'reinitialized', 'continued-in-new-session', 'replayed-once', 'dead-id-dropped', 'one-initialize', 'waited-retry-after',
      'retry-after-capped', 'no-4xx-retry', 'ran-once', 'resumed', 'stateless-2026', 'session-kept', 'calls-answered', 'no-hang']);
    expect([...shown].sort()).toEqual([...CHECK_NAMES].sort());
  });
});

describe('a client with a problem, or that skipped', () => {
  it('fails every check with the reason, and has no cost', () => {
    const e = evidence('restart', [], [], { problem: 'hung: still running after 15000 ms (killed)' });
    const checks = scoreChecks(scenario('restart'), e);
    expect(checks.map((c) => [c.passed, c.detail])).toEqual(scenario('restart').checks.map(() => [false, 'hung: still running after 15000 ms (killed)']));
    expect(recoveryCost(scenario('restart'), e)).toBeUndefined();
    expect(scoreChecks(scenario('stateless-2026'), evidence('stateless-2026', [], [], { skipped: 'no 2026-07-28' }))).toEqual([]);
  });
});

describe('recoveryCost', () => {
  it('counts the requests and time from the loss to the answer, GET streams aside', () => {
    const withGet = evidence('gone-typescript-sdk', [...recovered.wire.slice(0, 4), { seq: 9, connection: 9, startMs: 35, endMs: 36, httpMethod: 'GET', session: 'A', status: 404 }, ...recovered.wire.slice(4)], recovered.outcomes);
    expect(recoveryCost(scenario('gone-typescript-sdk'), withGet)).toEqual({ recovered: true, requests: 3, ms: 30 });
    expect(recoveryCost(scenario('gone-typescript-sdk'), plain)).toMatchObject({ recovered: false });
  });
});
