import { metFault } from './fault-met.ts';
import type { ScenarioEvidence } from './run-scenario.ts';
import type { ChurnScenario } from './scenario.ts';
import { wireFacts } from './wire-facts.ts';

/**
 * What a fault cost the client, from the first request that met it to the answer of the last
 * call of that step (or its failure, where failing was right): the requests it sent in between (GET streams aside: their timing is the
 * SDK's, not the recovery's; a resumption counts) and the time. `recovered: false` when a call of the step that
 * should have been answered was not.
 */
export interface RecoveryCost {
  readonly recovered: boolean;
  readonly requests: number;
  readonly ms: number;
}

/**
 * The recovery cost of a scenario's fault, or undefined when no request met one (or the client
 * had a problem).
 *
 * @example
 * recoveryCost(scenario, evidence); // { recovered: true, requests: 3, ms: 14 }
 */
export function recoveryCost(scenario: ChurnScenario, evidence: ScenarioEvidence): RecoveryCost | undefined {
  if (evidence.problem !== undefined || evidence.skipped !== undefined) return undefined;
  const facts = wireFacts(scenario, evidence);
  // What a client does before the scenario's faults (probes, its own GETs) is not a recovery.
  const faulted = scenario.steps.findIndex((step) => step.before !== undefined || step.during !== undefined);
  if (faulted < 0) return undefined;
  const loss = evidence.wire.find((r) => r.startMs >= facts.stepStartMs(faulted) && metFault(r, scenario.revision));
  if (!loss) return undefined;
  const step = scenario.steps[facts.stepOf(loss)]!;
  let answeredAt = loss.endMs ?? loss.startMs;
  let recovered = true;
  for (const call of step.calls) {
    const outcome = evidence.outcomes.find((o) => o.id === call.id);
    if (!outcome) {
      recovered = false;
      continue;
    }
    if (!outcome.ok && call.expect === 'ok') {
      recovered = false;
      continue;
    }
    // The answer that settled it (or, where failing was right, the last response it got): the
    // client knew then, earlier than its line reached the check.
    const sends = facts.sendsOf(call);
    const answer = outcome.ok ? sends.filter((r) => r.status === 200 && !r.broken).at(-1) : sends.at(-1);
    answeredAt = Math.max(answeredAt, answer?.endMs ?? outcome.atMs);
  }
  const requests = evidence.wire.filter((r) => r.seq > loss.seq && (r.httpMethod !== 'GET' || r.lastEventId === true) && r.startMs <= answeredAt).length;
  return { recovered, requests, ms: Math.max(0, Math.round(answeredAt - (loss.endMs ?? loss.startMs))) };
}
