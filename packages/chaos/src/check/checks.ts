import type { ScenarioEvidence } from './run-scenario.ts';
import type { CheckName, ChurnScenario } from './scenario.ts';
import { wireFacts, type WireFacts } from './wire-facts.ts';
import type { WireRecord } from './wire-tap.ts';

/** One check of one scenario: passed or not, and why. */
export interface CheckResult {
  readonly name: CheckName;
  readonly passed: boolean;
  /** A failed required check fails the run (exit status 1). */
  readonly required: boolean;
  readonly detail: string;
}

/**
 * What each check asks, as the reports print it.
 *
 * @example
 * CHECK_TITLES.reinitialized; // 're-initialized without the old id'
 */
export const CHECK_TITLES: Readonly<Record<CheckName, string>> = {
  reinitialized: 're-initialized without the old id',
  'continued-in-new-session': 'the call went on in the new session',
  'replayed-once': 'replayed at most once',
  'dead-id-dropped': 'never sent a dead session id again',
  'one-initialize': 'one initialize for concurrent calls',
  'waited-retry-after': 'waited at least Retry-After',
  'retry-after-capped': 'capped a hostile Retry-After',
  'no-4xx-retry': 'never retried a 4xx',
  'ran-once': 'never ran a non-idempotent call twice',
  resumed: 'resumed with Last-Event-ID',
  'stateless-2026': 'no session logic on 2026-07-28',
  'session-kept': 'kept its session (no churn, no new session)',
  'calls-answered': 'the application saw only the failures it should',
  'no-hang': 'no call hung until its timeout',
  'token-refreshed': 'refreshed its expired token and went on with the new one',
};

/** Checks a client may fail and still pass the run: what the protocol allows either way. */
const OPTIONAL: ReadonlySet<CheckName> = new Set(['resumed', 'session-kept']);

type Verdict = readonly [passed: boolean, detail: string];
const pass = (detail: string): Verdict => [true, detail];
const fail = (detail: string): Verdict => [false, detail];
const req = (r: WireRecord) => `request ${r.seq} (${r.httpMethod}${r.rpcMethod ? ` ${r.rpcMethod}` : ''})`;

function firstLoss(facts: WireFacts): WireRecord | undefined {
  return facts.gone[0];
}

const CHECKS: Readonly<Record<CheckName, (facts: WireFacts, evidence: ScenarioEvidence) => Verdict>> = {
  reinitialized(facts) {
    const loss = firstLoss(facts);
    if (!loss) return fail('no request met the dead session: the scenario did not run as written');
    const inits = facts.initializesAfter(loss.endMs ?? loss.startMs);
    if (inits.length === 0) return fail(`no initialize after ${req(loss)} was answered ${loss.status}`);
    const carrying = inits.find((r) => r.session !== undefined);
    return carrying ? fail(`${req(carrying)} carried a session id`) : pass(`initialize without a session id after ${req(loss)}`);
  },
  'continued-in-new-session'(facts) {
    const loss = firstLoss(facts);
    const call = loss && facts.callOf(loss);
    if (!loss || !call) return fail('no call met the dead session');
    const init = facts.initializesAfter(loss.endMs ?? loss.startMs).find((r) => r.minted !== undefined);
    if (!init) return fail('no new session was opened');
    const next = facts.sendsOf(call).find((r) => r.seq > init.seq);
    if (!next) return fail(`${call.id} was not sent again after the new session opened`);
    return next.session === init.minted && next.status === 200
      ? pass(`${call.id} answered in the new session`) : fail(`${call.id} was sent again ${next.session === init.minted ? `and answered ${next.status}` : 'without the new session id'}`);
  },
  'replayed-once'(facts) {
    for (const call of facts.calls) {
      const sends = facts.sendsOf(call);
      const lost = sends.findIndex((r) => facts.gone.includes(r));
      if (lost >= 0 && sends.length - lost - 1 > 1) return fail(`${call.id} was sent ${sends.length - lost - 1} times after it met the dead session`);
    }
    return pass('no call was sent more than once after a loss');
  },
  'dead-id-dropped'(facts) {
    const seen = new Set<string>();
    for (const loss of facts.gone) {
      if (seen.has(loss.session!)) continue;
      seen.add(loss.session!);
      const lossEnd = loss.endMs ?? loss.startMs;
      // The client knew the session was dead once it opened another, or once its next step began.
      const knownAt = Math.min(facts.initializesAfter(lossEnd)[0]?.startMs ?? Infinity, facts.stepStartMs(facts.stepOf(loss) + 1));
      // A call's first send in the step that met the loss was made with the others, before the loss was known.
      const original = (r: WireRecord) => { const call = facts.callOf(r); return call !== undefined && facts.sendsOf(call)[0] === r && facts.stepOf(r) === facts.stepOf(loss); };
      const again = facts.wire.find((r) => r.session === loss.session && r.startMs >= knownAt && !original(r));
      if (again) return fail(`${req(again)} carried a session id already answered ${loss.status} (${req(loss)})`);
    }
    return pass(seen.size ? 'no dead session id was sent again' : 'no session was lost');
  },
  'one-initialize'(facts) {
    const loss = firstLoss(facts);
    if (!loss) return fail('no request met the dead session');
    // An initialize refused 401 opened nothing: the token was dead, not a second session (a protected server's order of checks).
    const all = facts.initializesAfter(loss.startMs);
    const inits = all.filter((r) => r.status !== 401).length;
    const refused = all.length - inits ? ` (and ${all.length - inits} refused 401 for its token)` : '';
    return inits <= 1 ? pass(`${inits} initialize after the loss${refused}`) : fail(`${inits} initialize requests after the loss${refused}`);
  },
  'waited-retry-after'(facts) {
    let waited = 0;
    for (const call of facts.calls) {
      const sends = facts.sendsOf(call);
      for (const [i, r] of sends.entries()) {
        const next = sends[i + 1];
        if (r.retryAfterMs === undefined || !next || (r.status !== 429 && r.status !== 503)) continue;
        // From the refused request's arrival: the client read the answer after it, so a client that
        // waited cannot fail, however late a loaded server notes the response's end. 50 ms for the
        // two clocks' granularity: the gap is measured here, the wait by the client.
        const gap = next.startMs - r.startMs;
        if (gap < r.retryAfterMs - 50) return fail(`${call.id} sent again ${Math.round(gap)} ms after a ${r.status} asking for ${r.retryAfterMs} ms`);
        waited += 1;
      }
    }
    return pass(waited ? 'every retry waited Retry-After' : 'no retry (nothing to wait for)');
  },
  'retry-after-capped'(facts, evidence) {
    const hostile = facts.wire.find((r) => r.retryAfter !== undefined && (r.retryAfterMs ?? Infinity) > 60_000);
    const call = hostile && facts.callOf(hostile);
    if (!hostile || !call) return fail('no call met the hostile Retry-After');
    const outcome = evidence.outcomes.find((o) => o.id === call.id);
    if (!outcome) return fail(`${call.id}: no outcome printed`);
    const ms = outcome.atMs - (hostile.endMs ?? hostile.startMs);
    return ms < evidence.callTimeoutMs * 0.9 ? pass(`${call.id} settled ${Math.round(ms)} ms after it`) : fail(`${call.id} waited ${Math.round(ms)} ms`);
  },
  'no-4xx-retry'(facts) {
    for (const call of facts.calls) {
      const sends = facts.sendsOf(call);
      const rejected = sends.findIndex((r) => r.status !== undefined && r.status >= 400 && r.status < 500 && r.status !== 429);
      if (rejected >= 0 && sends.length > rejected + 1) return fail(`${call.id} was sent again after ${sends[rejected]!.status}`);
    }
    return pass('no call was sent again after a 4xx');
  },
  'ran-once'(_, evidence) {
    const twice = Object.entries(evidence.ledger).find(([, runs]) => runs > 1);
    return twice ? fail(`record ${twice[0]} ran ${twice[1]} times`) : pass('every record call ran at most once');
  },
  resumed(facts) {
    const broken = facts.wire.find((r) => r.broken && r.call !== undefined);
    const call = broken && facts.callOf(broken);
    if (!broken || !call) return fail('no response stream was dropped');
    const resume = facts.wire.find((r) => r.seq > broken.seq && r.httpMethod === 'GET' && r.lastEventId && r.session === broken.session);
    const resent = facts.sendsOf(call).filter((r) => r.seq > broken.seq).length;
    if (!resume) return fail(`no GET with Last-Event-ID on the session after the drop${resent ? ` (${call.id} sent again instead)` : ''}`);
    return resent ? fail(`resumed, but ${call.id} was sent again too`) : pass(`${req(resume)} resumed ${call.id}`);
  },
  'stateless-2026'(facts) {
    const sessionful = facts.wire.find((r) => r.session !== undefined || r.rpcMethod === 'initialize');
    return sessionful ? fail(`${req(sessionful)} ${sessionful.rpcMethod === 'initialize' ? 'is an initialize' : 'carried a session id'}`) : pass('no initialize, no session id');
  },
  'session-kept'(facts) {
    if (facts.gone.length) return fail(`${req(facts.gone[0]!)} met a dead session`);
    // Counted from the first call: how a client connects (a proxy may open a session to probe) is not churn.
    const inits = facts.initializesAfter(facts.stepStartMs(0)).length;
    return inits === 0 ? pass('one session throughout') : fail(`${inits} initialize request${inits === 1 ? '' : 's'} after the first call: a new session without a loss`);
  },
  'calls-answered'(facts, evidence) {
    const wrong = facts.calls.flatMap((call) => {
      const outcome = evidence.outcomes.find((o) => o.id === call.id);
      if (!outcome) return [`${call.id}: no outcome printed`];
      if (call.expect === 'ok' && !outcome.ok) return [`${call.id} failed (${outcome.error ?? 'no error given'})`];
      if (call.expect === 'fail' && outcome.ok) return [`${call.id} was answered though the server refused it`];
      return [];
    });
    const failed = evidence.outcomes.filter((o) => !o.ok).length;
    return wrong.length ? fail(wrong.join('; ')) : pass(`${failed} failed call${failed === 1 ? '' : 's'}, as expected`);
  },
  'token-refreshed'(facts) {
    // Every token issued before the fault expired with the session (the server answers it 401 wherever it
    // checks it): a token sent after the first 401 and never refused is one the client got since.
    const refused = facts.wire.find((r) => r.status === 401 && r.startMs >= facts.faultStartMs);
    if (!refused) return fail('no request met the expired token: the scenario did not run as written');
    const expired = new Set(facts.wire.filter((r) => r.status === 401).map((r) => r.token));
    const fresh = facts.wire.find((r) => r.seq > refused.seq && r.token !== undefined && r.status !== undefined && !expired.has(r.token));
    return fresh ? pass(`${req(fresh)} carried a new token (${fresh.token}) after ${req(refused)} was answered 401`)
      : fail(`no request carried a new token after ${req(refused)} was answered 401`);
  },
  'no-hang'(facts, evidence) {
    for (const outcome of evidence.outcomes) {
      const call = facts.calls.find((c) => c.id === outcome.id)!;
      const first = facts.sendsOf(call)[0];
      if (first && outcome.atMs - first.startMs >= evidence.callTimeoutMs * 0.9) {
        return fail(`${call.id} ended ${Math.round(outcome.atMs - first.startMs)} ms after it was sent (the call timeout is ${evidence.callTimeoutMs} ms)`);
      }
    }
    return pass('every call ended before its timeout');
  },
};

/**
 * Scores a scenario's checks on its evidence. A scenario whose client had a problem (did not
 * start, hung, printed garbage) fails every check with that reason; a skipped one has none.
 *
 * @example
 * scoreChecks(scenario, evidence).filter((c) => !c.passed).map((c) => c.detail);
 */
export function scoreChecks(scenario: ChurnScenario, evidence: ScenarioEvidence): CheckResult[] {
  if (evidence.skipped !== undefined) return [];
  const facts = wireFacts(scenario, evidence);
  return scenario.checks.map((name) => {
    const [passed, detail] = evidence.problem === undefined ? CHECKS[name](facts, evidence) : fail(evidence.problem);
    return { name, passed, required: !OPTIONAL.has(name), detail };
  });
}
