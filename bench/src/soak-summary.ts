import type { SoakReport } from './soak.ts';

const list = (counts: Readonly<Record<string, number>>): string => {
  const entries = Object.entries(counts).sort(([, a], [, b]) => b - a);
  return entries.length === 0 ? 'none' : entries.map(([k, n]) => `${k} ${n}`).join(', ');
};

/**
 * The soak's report for people: the figures, the faults, and each goal met or not.
 *
 * @example
 * console.log(formatSummary(report, 'bench/results/soak.json'));
 */
export function formatSummary(report: SoakReport, written?: string): string {
  const r = report;
  const lines = [
    `chaos soak — seed ${r.seed}: ${r.settings.clients} busy SDK 1.x clients (up to ${r.settings.maxBatch} calls at once each) and ` +
      `${r.settings.sleepers} quiet ones, through the engine`,
    `  calls          ${r.calls} of ${r.requestedCalls} in ${(r.wallMs / 1000).toFixed(1)} s (${r.callsPerSecond}/s; ` +
      `paced over ${(r.settings.plannedMs / 1000).toFixed(1)} s)${r.deadlineReached ? ' — DEADLINE REACHED' : ''}`,
    `  succeeded      ${r.succeeded} (${Object.entries(r.byTool).map(([t, f]) => `${t} ${f.succeeded}/${f.calls}`).join(', ')})`,
    `  replay-safe    ${r.replaySafe.errors} user-visible errors of ${r.replaySafe.calls} calls${r.replaySafe.errors ? `: ${list(r.replaySafe.errorsByCode)}` : ''}` +
      (r.replaySafe.secondLoss ? `; ${r.replaySafe.secondLoss} SESSION_LOST after a second, separate loss (two sessions lost under it: by design)` : ''),
    `  record         ${r.nonIdempotent.succeeded} answered of ${r.nonIdempotent.calls}; failed: ${list(r.nonIdempotent.errorsByCode)}`,
    `                 executions per call: ${list(r.nonIdempotent.executions)}; contract violations ${r.nonIdempotent.violations}` +
      (r.nonIdempotent.violations ? ` (${list(r.nonIdempotent.violationsByReason)})` : ''),
    `  duplicates     ${r.duplicates.extraExecutions} extra executions in the ledger${r.duplicates.keys ? ` (${r.duplicates.sample.join(', ')})` : ''}`,
    `  replays        ${r.replays.total} (${r.replays.callsReplayed} calls), at most ${r.replays.max} per call, ${r.replays.unattributed} not tied to a call;` +
      ` at most ${r.maxSendsPerCall} requests and ${r.maxSessionGonePerCall} "session gone" per call`,
    `  hung           ${r.hung}`,
    `  sessions       ${r.sessionsStarted} started, ${r.reinitializations} re-initializations`,
    `  engine         ${list(r.events)}; gave up: ${list(r.gaveUp)}`,
    `  faults         ${r.faults.applied} of ${r.faults.scheduled} steps applied: ${list(r.faults.byKind)}` +
      (r.faults.kindsNotApplied.length ? `; NOT APPLIED: ${r.faults.kindsNotApplied.join(', ')}` : ''),
    `  dealt          ${list(r.faults.wire.faultsDealt)} (of ${r.faults.wire.requests} requests${r.faults.wire.missed ? `, ${r.faults.wire.missed} unseen` : ''})`,
    ...(r.failures.some((f) => f.breaksGoal === true) ? ['calls that break a goal (first 10; all in the JSON report):'] : []),
    ...r.failures.filter((f) => f.breaksGoal === true).slice(0, 10).map((f) => `  ${JSON.stringify(f)}`),
    'goals:',
    ...r.goals.map((g) => `  ${g.met ? 'ok  ' : 'FAIL'} ${g.name}: ${g.value} (goal ${g.target})`),
    r.passed ? 'PASSED' : 'FAILED',
  ];
  if (written !== undefined) lines.push(`report: ${written}`);
  return lines.join('\n');
}
