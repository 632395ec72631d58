import { startChaosServer, type ChaosServer } from '../chaos-server.ts';
import { ProtectedResource } from '../protected-resource.ts';
import { runClient } from './client-process.ts';
import { readRun, type CallOutcome, type ReadRun } from './outcome-lines.ts';
import { callKey, CONTEXT_ENV, SCENARIO_ENV, workloadContext, type ChurnScenario, type FaultAction } from './scenario.ts';
import { tapWire, type WireRecord } from './wire-tap.ts';

/** Everything a scenario's checks are scored on. */
export interface ScenarioEvidence {
  readonly scenario: string;
  /** The wire ledger: every request to the MCP endpoint, in arrival order. */
  readonly wire: readonly WireRecord[];
  /** The chaos server's execution ledger: runs of `record` per key. */
  readonly ledger: Readonly<Record<string, number>>;
  readonly outcomes: readonly CallOutcome[];
  readonly callTimeoutMs: number;
  readonly skipped?: string;
  readonly problem?: string;
}

/** How each scenario's client is run. */
export interface RunOptions {
  /** The shell command; the server's URL is added as its last argument. */
  readonly client: string;
  /** The timeout the client is asked to apply to each call (default 15 s). */
  readonly callTimeoutMs?: number;
  /** The client is killed after this long (default 60 s). */
  readonly capMs?: number;
}

/**
 * The call timeout a client is asked to apply by default: long enough that a correct client on a
 * loaded 2-core machine never meets it (20 replayed calls took over 7 s there), so `no-hang` fails
 * only a call that waited for its timeout, never a slow machine.
 *
 * @example
 * runScenario(scenario, { client, callTimeoutMs: DEFAULT_CALL_TIMEOUT_MS });
 */
export const DEFAULT_CALL_TIMEOUT_MS = 15_000;
/**
 * A client still running after this long is killed: several call timeouts, since a scenario has up to three steps.
 *
 * @example
 * runScenario(scenario, { client, capMs: DEFAULT_CAP_MS });
 */
export const DEFAULT_CAP_MS = 60_000;
/** How long the check waits, after the client exited, for the server to finish answering what it had. */
const SETTLE_MS = 500;

function apply(chaos: ChaosServer, action: FaultAction, auth: ProtectedResource | undefined, now = new Date()): void {
  if (action === 'expire-session-and-token') {
    // Both at once, before the server reads the request: the order the server reports them in is its `auth.order`.
    auth?.expireAccessTokens();
    void chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    return;
  }
  if (action === 'expire-idle') {
    // The budget catches the session the client left idle during its pause, then is lifted so the new session cannot expire too.
    void chaos.applyFaults([{ kind: 'idle-budget', ms: 1 }]);
    chaos.state();
    void chaos.applyFaults([{ kind: 'idle-budget', ms: null }]);
    return;
  }
  // One at a time: each takes effect before this returns (applyFaults awaits between faults of a list).
  for (const fault of typeof action === 'function' ? action(now) : action) void chaos.applyFaults([fault]);
}

function redacted(read: ReadRun): ReadRun {
  const redact = ProtectedResource.redact;
  return {
    outcomes: read.outcomes.map((o) => ({ ...o, ...(o.text === undefined ? {} : { text: redact(o.text) }), ...(o.error === undefined ? {} : { error: redact(o.error) }) })),
    ...(read.problem === undefined ? {} : { problem: redact(read.problem) }), ...(read.skipped === undefined ? {} : { skipped: redact(read.skipped) }),
  };
}

async function settled(wire: readonly WireRecord[]): Promise<void> {
  const until = performance.now() + SETTLE_MS;
  while (wire.some((r) => r.endMs === undefined) && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * Runs one scenario: a chaos server of its own on 127.0.0.1 (a protected resource when the
 * scenario has `auth`: the client's context then carries its first token pair and the token
 * endpoint), the client command run once against it (URL last, `MCP_CHURN_SCENARIO` and
 * `MCP_CHURN_CONTEXT` set), the scenario's faults applied as its calls reach the server, and the server stopped. Never throws for a bad client: what went
 * wrong is the evidence's `problem`.
 *
 * @example
 * const evidence = await runScenario(SCENARIOS[0], { client: 'node my-client.mjs' });
 * evidence.wire.filter((r) => r.rpcMethod === 'initialize').length;
 */
export async function runScenario(scenario: ChurnScenario, options: RunOptions): Promise<ScenarioEvidence> {
  const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const capMs = options.capMs ?? DEFAULT_CAP_MS;
  const auth = scenario.auth === undefined ? undefined : new ProtectedResource(scenario.auth);
  const chaos = await startChaosServer({ ...scenario.chaos, ...(scenario.chaos.faults ? { faults: [...scenario.chaos.faults] } : {}), ...(auth ? { auth } : {}) });
  const stepOf = new Map(scenario.steps.flatMap((step, i) => step.calls.map((call) => [callKey(call.tool, call.arguments), i] as const)));
  const fired = new Set<number>();
  const timers = new Set<NodeJS.Timeout>();
  const t0 = performance.now();
  const tap = tapWire(Number(new URL(chaos.url).port), t0, (record) => {
    const index = record.call === undefined ? undefined : stepOf.get(record.call);
    if (index === undefined || fired.has(index)) return;
    fired.add(index);
    const step = scenario.steps[index]!;
    const now = new Date();
    if (step.before) apply(chaos, step.before, auth, now);
    const { during } = step;
    if (during) timers.add(setTimeout(() => apply(chaos, during.faults, auth), during.afterMs));
    return step.answerAt?.(now).getTime();
  }, auth && ((authorization) => auth.tagOf(authorization)));
  try {
    const tokens = auth?.issue();
    const credentials = auth && tokens && {
      tokenEndpoint: new URL('/token', chaos.url).href, clientId: auth.clientId, clientSecret: auth.clientSecret, ...tokens,
    };
    const env = { [SCENARIO_ENV]: scenario.name, [CONTEXT_ENV]: JSON.stringify(workloadContext(scenario, callTimeoutMs, credentials)) };
    const run = await runClient(options.client, chaos.url, env, capMs, t0);
    await settled(tap.records);
    // Whatever a client printed of its credentials (an error that quotes a header) stays out of the reports.
    const read = auth ? redacted(readRun(run, scenario, capMs)) : readRun(run, scenario, capMs);
    return { scenario: scenario.name, wire: tap.records, ledger: chaos.state().ledger, callTimeoutMs, ...read };
  } finally {
    for (const timer of timers) clearTimeout(timer);
    await chaos.stop();
    tap.stop();
  }
}
