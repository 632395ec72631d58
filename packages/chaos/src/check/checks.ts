import type { ScenarioEvidence } from './run-scenario.ts';
import type { CheckName, ChurnScenario } from './scenario.ts';
import { CHECK_HINTS, CHECK_SOURCES } from './check-hints.ts';
import { faultMet } from './fault-met.ts';
import { deadIdAgain } from './dead-id-reuse.ts';
import { requestName, wireFacts, type WireFacts } from './wire-facts.ts';
import type { WireRecord } from './wire-tap.ts';

/** One check of one scenario: passed or not, why, and the requests that show it. */
export interface CheckResult {
  readonly name: CheckName;
  readonly passed: boolean;
  /** A failed required check fails the run (exit status 1). */
  readonly required: boolean;
  /** Where its rule comes from (see `CHECK_SOURCES`). */
  readonly source: (typeof CHECK_SOURCES)[CheckName];
  /** What proved it, or why it failed. */
  readonly detail: string;
  /** The wire ledger's requests (by `seq`) the verdict rests on: the reports print them under the check. */
  readonly requests?: readonly number[];
  /** How to fix the client, for a failed check. */
  readonly hint?: string;
  /** With `--repeat`: the check's verdict differed from run to run; it passed in `passed` of `runs`. */
  readonly varies?: { readonly passed: number; readonly runs: number };
}

export { CHECK_SOURCES, CHECK_TITLES } from './check-hints.ts';

/** Checks a client may fail and still pass the run: what the protocol allows either way. */
const OPTIONAL: ReadonlySet<CheckName> = new Set(['resumed', 'session-kept']);
/** Checks that judge what the application saw, with or without the fault: every other check needs the fault met. */
const WITHOUT_FAULT: ReadonlySet<CheckName> = new Set(['calls-answered', 'no-hang']);

type Verdict = readonly [passed: boolean, detail: string, requests?: readonly WireRecord[]];
const pass = (detail: string, ...requests: (WireRecord | undefined)[]): Verdict => [true, detail, requests.filter((r) => r !== undefined)];
const fail = (detail: string, ...requests: (WireRecord | undefined)[]): Verdict => [false, detail, requests.filter((r) => r !== undefined)];
const req = requestName;

function firstLoss(facts: WireFacts): WireRecord | undefined {
  return facts.gone[0];
}

const CHECKS: Readonly<Record<CheckName, (facts: WireFacts, evidence: ScenarioEvidence) => Verdict>> = {
  reinitialized(facts) {
    const loss = firstLoss(facts);
    if (!loss) return fail('no request met the dead session: the scenario did not run as written');
    const inits = facts.initializesAfter(loss.endMs ?? loss.startMs);
    if (inits.length === 0) return fail(`no initialize after ${req(loss)} was answered ${loss.status}`, loss);
    const carrying = inits.find((r) => r.session !== undefined);
    if (carrying) return fail(`${req(carrying)} carried a session id`, loss, carrying);
    const opened = inits.find((r) => r.minted !== undefined);
    return opened ? pass(`${req(opened)} opened a new session without the old id after ${req(loss)} was answered ${loss.status}`, loss, opened)
      : fail(`no initialize after ${req(loss)} opened a session (${inits.map((r) => `${req(r)} → ${r.status}`).join(', ')})`, loss, ...inits);
  },
  'continued-in-new-session'(facts) {
    const loss = firstLoss(facts);
    const call = loss && facts.callOf(loss);
    if (!loss || !call) return fail('no call met the dead session: the scenario did not run as written');
    const init = facts.initializesAfter(loss.endMs ?? loss.startMs).find((r) => r.minted !== undefined);
    if (!init) return fail('no new session was opened', loss);
    const next = facts.sendsOf(call).find((r) => r.seq > init.seq);
    if (!next) return fail(`${call.id} was not sent again after the new session opened`, loss, init);
    return next.session === init.minted && next.status === 200
      ? pass(`${req(next)}: ${call.id} answered in the new session`, loss, init, next)
      : fail(`${call.id} was sent again ${next.session === init.minted ? `and answered ${next.status}` : 'without the new session id'}`, loss, init, next);
  },
  'replayed-once'(facts) {
    let replays = 0;
    for (const call of facts.calls) {
      const sends = facts.sendsOf(call);
      const lost = sends.findIndex((r) => facts.gone.includes(r));
      if (lost < 0) continue;
      const after = sends.slice(lost + 1);
      if (after.length > 1) return fail(`${call.id} was sent ${after.length} times after it met the dead session`, sends[lost], ...after);
      replays += after.length;
    }
    return pass(`${replays} call${replays === 1 ? '' : 's'} sent again after a loss, none more than once`);
  },
  'dead-id-dropped'(facts) {
    const sessions = [...new Set(facts.gone.map((r) => r.session!))];
    if (sessions.length === 0) return fail('no session was lost: the scenario did not run as written');
    let crossed = 0;
    for (const session of sessions) {
      const found = deadIdAgain(facts, session);
      const reuse = found.reuse;
      if (reuse) return fail(`${req(reuse.again)} carried a session id already answered ${reuse.loss.status} (${req(reuse.loss)}), ${reuse.proof}`, reuse.loss, ...reuse.shown, reuse.again);
      crossed += found.crossed;
    }
    const crossing = crossed ? `; ${crossed} request${crossed === 1 ? '' : 's'} on another connection may have crossed its answer` : '';
    return pass(`no request carried a dead session id after the client read its loss (${sessions.length} lost${crossing})`, facts.gone[0]);
  },
  'one-initialize'(facts) {
    const loss = firstLoss(facts);
    if (!loss) return fail('no request met the dead session: the scenario did not run as written');
    // An initialize refused 401 opened nothing: the token was dead, not a second session (a protected server's order of checks).
    const all = facts.initializesAfter(loss.startMs);
    const opened = all.filter((r) => r.status !== 401);
    const refused = all.length - opened.length ? ` (and ${all.length - opened.length} refused 401 for its token)` : '';
    if (opened.length === 0) return fail(`no initialize after the loss${refused}`, loss);
    return opened.length === 1 ? pass(`1 initialize after the loss${refused}`, loss, opened[0]) : fail(`${opened.length} initialize requests after the loss${refused}`, loss, ...opened);
  },
  'waited-retry-after'(facts) {
    const waits: WireRecord[] = [];
    for (const call of facts.calls) {
      const sends = facts.sendsOf(call);
      for (const [i, r] of sends.entries()) {
        if (r.retryAfterMs === undefined || (r.status !== 429 && r.status !== 503)) continue;
        const next = sends[i + 1];
        if (!next) return fail(`${call.id} was not sent again after ${req(r)} was answered ${r.status}: no retry shows a wait`, r);
        // From the refused request's arrival: the client read the answer after it, so a client that
        // waited cannot fail, however late a loaded server notes the response's end. 50 ms for the
        // two clocks' granularity: the gap is measured here, the wait by the client.
        const gap = next.startMs - r.startMs;
        if (gap < r.retryAfterMs - 50) return fail(`${call.id} sent again ${Math.round(gap)} ms after a ${r.status} asking for ${r.retryAfterMs} ms`, r, next);
        waits.push(r, next);
      }
    }
    return waits.length ? pass(`every retry waited Retry-After (${waits.length / 2} retr${waits.length === 2 ? 'y' : 'ies'})`, ...waits)
      : fail('no call was answered 429 or 503 with Retry-After: the scenario did not run as written');
  },
  'retry-after-capped'(facts, evidence) {
    const hostile = facts.wire.find((r) => r.retryAfter !== undefined && (r.retryAfterMs ?? Infinity) > 60_000);
    const call = hostile && facts.callOf(hostile);
    if (!hostile || !call) return fail('no call met the hostile Retry-After');
    const outcome = evidence.outcomes.find((o) => o.id === call.id);
    if (!outcome) return fail(`${call.id}: no outcome printed`, hostile);
    const ms = facts.settledAtMs(call, outcome) - (hostile.endMs ?? hostile.startMs);
    const limit = Math.round(evidence.callTimeoutMs * 0.9);
    return ms < limit ? pass(`${call.id} settled ${Math.round(ms)} ms after the hostile answer (within 90 % of the call timeout, ${limit} ms)`, hostile)
      : fail(`${call.id} waited ${Math.round(ms)} ms after the hostile answer (90 % of the call timeout is ${limit} ms)`, hostile);
  },
  'no-4xx-retry'(facts) {
    const refused: WireRecord[] = [];
    for (const call of facts.calls) {
      const sends = facts.sendsOf(call);
      const rejected = sends.findIndex((r) => r.status !== undefined && r.status >= 400 && r.status < 500 && r.status !== 429);
      if (rejected < 0) continue;
      if (sends.length > rejected + 1) return fail(`${call.id} was sent again after ${sends[rejected]!.status}`, sends[rejected], sends[rejected + 1]);
      refused.push(sends[rejected]!);
    }
    return refused.length ? pass(`${refused.map((r) => `${facts.callOf(r)!.id} (${r.status})`).join(', ')} not sent again`, ...refused)
      : fail('no call was refused with a 4xx: the scenario did not run as written');
  },
  'ran-once'(_, evidence) {
    const runs = Object.entries(evidence.ledger);
    const twice = runs.find(([, n]) => n > 1);
    if (twice) return fail(`record ${twice[0]} ran ${twice[1]} times`);
    return runs.length ? pass(`the execution ledger counts ${runs.map(([key, n]) => `record ${key} ${n}×`).join(', ')}`)
      : fail('no record call ran: the ledger has nothing to count');
  },
  resumed(facts) {
    const broken = facts.wire.find((r) => r.broken && r.call !== undefined);
    const call = broken && facts.callOf(broken);
    if (!broken || !call) return fail('no response stream was dropped');
    const resume = facts.wire.find((r) => r.seq > broken.seq && r.httpMethod === 'GET' && r.lastEventId && r.session === broken.session);
    const resent = facts.sendsOf(call).filter((r) => r.seq > broken.seq);
    if (!resume) return fail(`no GET with Last-Event-ID on the session after the drop${resent.length ? ` (${call.id} sent again instead)` : ''}`, broken, ...resent);
    return resent.length ? fail(`resumed, but ${call.id} was sent again too`, broken, resume, ...resent) : pass(`${req(resume)} resumed ${call.id}`, broken, resume);
  },
  'stateless-2026'(facts) {
    const sessionful = facts.wire.find((r) => r.session !== undefined || r.rpcMethod === 'initialize');
    if (sessionful) return fail(`${req(sessionful)} ${sessionful.rpcMethod === 'initialize' ? 'is an initialize' : 'carried a session id'}`, sessionful);
    const answered = facts.wire.find((r) => r.call !== undefined && r.status === 200);
    return answered ? pass(`no initialize, no session id; ${req(answered)} was answered without one`, answered)
      : fail('no call was answered: nothing shows the client spoke 2026-07-28');
  },
  'session-kept'(facts) {
    if (facts.gone.length) return fail(`${req(facts.gone[0]!)} met a dead session`, facts.gone[0]);
    // Counted from the first call: how a client connects (a proxy may open a session to probe) is not churn.
    const inits = facts.initializesAfter(facts.stepStartMs(0));
    if (inits.length) return fail(`${inits.length} initialize request${inits.length === 1 ? '' : 's'} after the first call: a new session without a loss`, ...inits);
    const answered = facts.calls.map((call) => facts.answerOf(call)).filter((r) => r !== undefined).sort((a, b) => a.seq - b.seq);
    const first = answered[0];
    const last = answered.at(-1);
    if (!first || !last || last.startMs <= facts.faultStartMs) return fail('no call was answered after the fault: nothing shows the session kept', first);
    return first.session === last.session ? pass(`${req(first)} and ${req(last)}, after the fault, answered on one session`, first, last)
      : fail(`${req(last)} was answered on another session than ${req(first)}`, first, last);
  },
  'calls-answered'(facts, evidence) {
    const proof: WireRecord[] = [];
    const shown: WireRecord[] = [];
    const wrong = facts.calls.flatMap((call) => {
      const outcome = evidence.outcomes.find((o) => o.id === call.id);
      const sent = facts.sendsOf(call);
      if (sent.length === 0) return [`${call.id} was never sent${outcome ? ` (yet printed ${outcome.ok ? 'an answer' : 'a failure'})` : ''}`];
      shown.push(sent.at(-1)!);
      if (!outcome) return [`${call.id}: no outcome printed`];
      if (call.expect === 'fail' && outcome.ok) return [`${call.id} was answered though the server refused it`];
      if (call.expect !== 'ok') return (shown.pop(), proof.push(sent.at(-1)!), []);
      if (!outcome.ok) return [`${call.id} failed (${outcome.error ?? 'no error given'})`];
      const answer = facts.answerOf(call);
      if (!answer) return [`${call.id} printed an answer, but none reached it whole on the wire (${sent.map((r) => `${req(r)} → ${r.broken ? 'broken' : r.status}`).join(', ')})`];
      const text = typeof call.arguments.text === 'string' ? call.arguments.text : undefined;
      if (text !== undefined && outcome.text !== text) return [`${call.id} printed ${JSON.stringify(outcome.text ?? null)}, not the echoed ${JSON.stringify(text)}`];
      shown.pop();
      proof.push(answer);
      return [];
    });
    const failed = evidence.outcomes.filter((o) => !o.ok).length;
    // The last send of each call that came to the wrong end: what the server answered it.
    return wrong.length ? fail(wrong.join('; '), ...shown)
      : pass(`every answer on the wire and printed as sent${failed ? `; ${failed} failed call${failed === 1 ? '' : 's'}, as expected` : ''}`, ...proof);
  },
  'token-refreshed'(facts) {
    // Every token issued before the fault expired with the session (the server answers it 401 wherever it
    // checks it): a token sent after the first 401 and never refused is one the client got since.
    const refused = facts.wire.find((r) => r.status === 401 && r.startMs >= facts.faultStartMs);
    if (!refused) return fail('no request met the expired token: the scenario did not run as written');
    const expired = new Set(facts.wire.filter((r) => r.status === 401).map((r) => r.token));
    const fresh = facts.wire.find((r) => r.seq > refused.seq && r.token !== undefined && r.status !== undefined && !expired.has(r.token));
    return fresh ? pass(`${req(fresh)} carried a new token (${fresh.token}) after ${req(refused)} was answered 401`, refused, fresh)
      : fail(`no request carried a new token after ${req(refused)} was answered 401`, refused);
  },
  'no-hang'(facts, evidence) {
    let latest = 0;
    for (const call of facts.calls) {
      const first = facts.sendsOf(call)[0];
      if (!first) return fail(`${call.id} was never sent`);
      const outcome = evidence.outcomes.find((o) => o.id === call.id);
      if (!outcome) return fail(`${call.id}: no outcome printed`, first);
      const ms = facts.settledAtMs(call, outcome) - first.startMs;
      if (ms >= evidence.callTimeoutMs * 0.9) return fail(`${call.id} ended ${Math.round(ms)} ms after it was sent (the call timeout is ${evidence.callTimeoutMs} ms)`, first);
      latest = Math.max(latest, ms);
    }
    return pass(`every call ended before its timeout (the slowest ${Math.round(latest)} ms after it was sent)`);
  },
};

/**
 * Scores a scenario's checks on its evidence. A scenario whose client had a problem (did not
 * start, hung, printed garbage) fails every check with that reason, and one whose fault was
 * never met fails every check that depends on it as "did not run as written"; a skipped one has
 * none. A failed check carries its fix hint. `strict` makes the optional checks (`resumed`, a MAY
 * of MCP's; `session-kept`, the seed's) required.
 *
 * @example
 * scoreChecks(scenario, evidence).filter((c) => !c.passed).map((c) => c.detail);
 */
export function scoreChecks(scenario: ChurnScenario, evidence: ScenarioEvidence, strict = false): CheckResult[] {
  if (evidence.skipped !== undefined) return [];
  const facts = wireFacts(scenario, evidence);
  const meeting = faultMet(scenario, evidence, facts);
  return scenario.checks.map((name) => {
    const [passed, detail, requests = []] = evidence.problem !== undefined ? fail(evidence.problem)
      : !meeting.met && !WITHOUT_FAULT.has(name) ? fail(`did not run as written: ${meeting.why}`) : CHECKS[name](facts, evidence);
    return {
      name, passed, required: strict || !OPTIONAL.has(name), source: CHECK_SOURCES[name], detail,
      ...(requests.length ? { requests: [...new Set(requests.map((r) => r.seq))].sort((a, b) => a - b) } : {}),
      ...(passed ? {} : { hint: CHECK_HINTS[name] }),
    };
  });
}
