import type { ScenarioEvidence } from './run-scenario.ts';
import type { ChurnScenario, FaultAction } from './scenario.ts';
import type { WireFacts } from './wire-facts.ts';
import type { WireRecord } from './wire-tap.ts';

/**
 * A request that met a scenario's fault: a status the server was told to send or "session gone"
 * (4xx/5xx; a GET answered 405, or any GET on 2026-07-28, is only a server without a standalone
 * stream), or a POST whose response stream broke.
 *
 * @example
 * metFault(record, '2025-11-25'); // true for a tools/call answered 404
 */
export function metFault(r: WireRecord, revision: ChurnScenario['revision']): boolean {
  if (r.broken && r.httpMethod === 'POST') return true;
  if (r.status === undefined || r.status < 400) return false;
  if (r.httpMethod === 'GET' && (r.status === 405 || revision === '2026-07-28')) return false;
  return true;
}

/** Whether a fault leaves no answer of its own on the wire when the client does right (an idle budget kept at bay, a stateless restart). */
function silent(action: FaultAction | undefined, scenario: ChurnScenario): boolean {
  if (action === undefined || typeof action === 'string') return action === undefined;
  const faults = typeof action === 'function' ? action(new Date(0)) : action;
  return faults.every((f) => f.kind === 'idle-budget' || (f.kind === 'restart' && scenario.chaos.mode === 'modern'));
}

/**
 * Whether the scenario ran as written: its fault met, by which request (none for a fault that is silent when met right), or why not.
 *
 * @example
 * const meeting: FaultMeeting = { met: false, why: 'no call of step 2 reached the server' };
 */
export type FaultMeeting = { readonly met: true; readonly by?: WireRecord } | { readonly met: false; readonly why: string };

/**
 * Whether the client met the scenario's fault: the step that carries it began on the wire (its
 * first call reached the server, which is when the fault is applied), and a request met it
 * (unless the fault is silent when handled right, as an idle budget under an open stream).
 * Every check but `calls-answered` and `no-hang` depends on it.
 *
 * @example
 * const meeting = faultMet(scenario, evidence, facts);
 * if (!meeting.met) console.log(`did not run as written: ${meeting.why}`);
 */
export function faultMet(scenario: ChurnScenario, evidence: ScenarioEvidence, facts: WireFacts): FaultMeeting {
  const index = scenario.steps.findIndex((step) => step.before !== undefined || step.during !== undefined);
  if (index < 0) return { met: true };
  const start = facts.stepStartMs(index);
  if (start === Infinity) return { met: false, why: `no call of step ${index + 1} reached the server, so its fault was never applied` };
  const by = evidence.wire.find((r) => r.startMs >= start && metFault(r, scenario.revision));
  if (by) return { met: true, by };
  const step = scenario.steps[index]!;
  if (silent(step.before, scenario) && step.during === undefined) return { met: true };
  return { met: false, why: `no request met the fault of step ${index + 1} (none was answered by it)` };
}
