import type { CallOutcome } from './outcome-lines.ts';
import type { ScenarioEvidence } from './run-scenario.ts';
import { callKey, type ChurnScenario, type WorkloadCall } from './scenario.ts';
import type { WireRecord } from './wire-tap.ts';

/**
 * What the checks read off a scenario's wire ledger: which requests met a dead session, when
 * each step began, which call a request was, and the sends of each call.
 *
 * @example
 * const facts = wireFacts(scenario, evidence);
 * facts.gone[0]?.status; // 404
 */
export interface WireFacts {
  readonly wire: readonly WireRecord[];
  /**
   * Requests that carried a session id and were answered "session gone": 404 or 400 on a
   * sessionful revision, on a session that never answered 2xx again (sessions do not come back;
   * a 400 the server was told to send is not a loss).
   */
  readonly gone: readonly WireRecord[];
  readonly calls: readonly WorkloadCall[];
  /** The workload call a `tools/call` request was. */
  callOf(record: WireRecord): WorkloadCall | undefined;
  /** Every send of a call, in order. */
  sendsOf(call: WorkloadCall): readonly WireRecord[];
  /** The step a request belongs to: its call's, or the last step begun when it arrived. */
  stepOf(record: WireRecord): number;
  /** When a step's first call arrived (Infinity if it never did). */
  stepStartMs(step: number): number;
  /** When the first step with a fault began (Infinity if none did). */
  readonly faultStartMs: number;
  /** The `initialize` requests that arrived after `ms`. */
  initializesAfter(ms: number): readonly WireRecord[];
  /**
   * The response that carried a call's complete answer: a send of it answered 200 on which the
   * server wrote a JSON-RPC response, or a resumption (GET with `Last-Event-ID` on its session)
   * that carried one after one of its sends broke. Undefined when no answer reached the wire whole.
   */
  answerOf(call: WorkloadCall): WireRecord | undefined;
  /**
   * When the client had a call's outcome, by what the wire shows where it can: an answered call
   * when its answer ended (a line printed later, by a client that buffers its output, is not
   * held against it); a failed one when its line came, but no later than the next step's first
   * call (the workload begins a step once the previous one has settled).
   */
  settledAtMs(call: WorkloadCall, outcome: CallOutcome): number;
}

/**
 * A request of the ledger as the verdicts name it.
 *
 * @example
 * requestName(record); // 'request 5 (POST tools/call)'
 */
export const requestName = (r: WireRecord): string => `request ${r.seq} (${r.httpMethod}${r.rpcMethod ? ` ${r.rpcMethod}` : ''})`;

/**
 * Builds the {@link WireFacts} of a scenario's evidence.
 *
 * @example
 * wireFacts(scenario, evidence).initializesAfter(0).length;
 */
export function wireFacts(scenario: ChurnScenario, evidence: ScenarioEvidence): WireFacts {
  const { wire } = evidence;
  const calls = scenario.steps.flatMap((step) => step.calls);
  const byKey = new Map(calls.map((call) => [callKey(call.tool, call.arguments), call]));
  const stepIndex = new Map(scenario.steps.flatMap((step, i) => step.calls.map((call) => [call.id, i] as const)));
  const starts = scenario.steps.map((_, i) =>
    Math.min(...wire.filter((r) => r.call !== undefined && stepIndex.get(byKey.get(r.call)?.id ?? '') === i).map((r) => r.startMs)));
  const callOf = (record: WireRecord) => (record.call === undefined ? undefined : byKey.get(record.call));
  const sendsOf = (call: WorkloadCall) => wire.filter((r) => callOf(r) === call);
  // An answer written whole: the stream may break or be closed by the client after it, the client had the answer.
  const whole = (r: WireRecord) => r.status === 200 && r.answered === true;
  const answerOf = (call: WorkloadCall) => {
    const sends = sendsOf(call);
    const direct = sends.find(whole);
    if (direct) return direct;
    const broken = sends.find((r) => r.broken);
    return broken && wire.find((r) => r.seq > broken.seq && r.httpMethod === 'GET' && r.lastEventId && r.session === broken.session && whole(r));
  };
  return {
    wire,
    gone: scenario.revision === '2026-07-28' ? [] : wire.filter((r) => r.session !== undefined && (r.status === 404 || r.status === 400)
      && !wire.some((later) => later.session === r.session && later.startMs > r.startMs && later.status !== undefined && later.status < 300)),
    calls,
    callOf,
    sendsOf,
    answerOf,
    settledAtMs(call, outcome) {
      const answer = outcome.ok ? answerOf(call) : undefined;
      if (answer?.endMs !== undefined) return Math.min(outcome.atMs, answer.endMs);
      return Math.min(outcome.atMs, starts[stepIndex.get(call.id)! + 1] ?? Infinity);
    },
    stepOf(record) {
      const call = callOf(record);
      if (call) return stepIndex.get(call.id)!;
      let step = 0;
      starts.forEach((start, i) => (start <= record.startMs ? (step = i) : undefined));
      return step;
    },
    stepStartMs: (step) => starts[step] ?? Infinity,
    faultStartMs: starts[scenario.steps.findIndex((step) => step.before !== undefined || step.during !== undefined)] ?? Infinity,
    initializesAfter: (ms) => wire.filter((r) => r.rpcMethod === 'initialize' && r.startMs >= ms),
  };
}
