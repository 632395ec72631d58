import { normalizeTrace, type NormalizedEvent, type ResilienceEvent } from '@mcp-resilience/core';
import { CALL_TIMEOUT_MS, callLongTool, callTool, describeOutcome, meets, SDK_TIMEOUT_MS } from './call-outcome.ts';
import type { ChaosInstance } from './chaos-control.ts';
import { deepEqual } from './deep-equal.ts';
import { defaultSleep, within, type Sleep } from './deadline.ts';
import type { ScenarioClient, ScenarioHost, ScenarioSdk } from './host.ts';
import { scenarioReport, type ScenarioReport } from './report.ts';
import { planFor } from './runtime-plan.ts';
import type { CallExpectation, DuringStep, Scenario, Step, TaskCall } from './scenario.ts';
import { scrub } from './scrub.ts';
import { standaloneStreamSettled, wireSummary, type WireSummary } from './wire-summary.ts';

const show = (value: unknown) => JSON.stringify(value);
const CLIENT_INFO = { name: 'mcp-resilience-scenarios', version: '0.0.0' };

/**
 * The normalized trace of a scenario: core's `normalizeTrace` of every engine event, without
 * the opening `session-started` of session 1 (the same in every scenario), so the trace holds
 * what the churn caused and nothing else.
 *
 * @example
 * scenarioTrace([{ type: 'session-started', session: 4, revision: '2025-11-25' }]); // []
 */
export function scenarioTrace(events: readonly ResilienceEvent[]): NormalizedEvent[] {
  const trace = normalizeTrace(events);
  const first = trace[0];
  return first?.type === 'session-started' && first.session === 1 ? trace.slice(1) : trace;
}

/** A new SDK client as the host's runtime makes it (its `clientOptions`), background stream errors ignored. */
export function newClient(sdk: ScenarioSdk): ScenarioClient {
  const Client = sdk.Client as unknown as new (info: typeof CLIENT_INFO, options?: unknown) => ScenarioClient;
  const client = sdk.clientOptions === undefined ? new Client(CLIENT_INFO) : new Client(CLIENT_INFO, sdk.clientOptions);
  client.onerror = () => {}; // the standalone stream's reconnects are the SDK's business; the steps judge the calls
  return client;
}

interface Run {
  readonly host: ScenarioHost;
  readonly chaos: ChaosInstance;
  readonly client: ScenarioClient;
  readonly clients: ScenarioClient[];
  readonly sleep: Sleep;
}

/** A request of the SDK's other than a tool call, under the same deadline. */
const request = <T>(run: Run, what: string, work: (options: { timeout: number }) => Promise<T>) =>
  within(work({ timeout: SDK_TIMEOUT_MS }), CALL_TIMEOUT_MS, run.sleep, what);

/**
 * A `taskCall` step: the call through the host's `callLongTool`; once its task is created, the
 * `during` steps run while it is polled. A call that never became a task is a mismatch.
 */
async function runTaskCall(call: TaskCall, during: readonly DuringStep[], expect: CallExpectation, run: Run): Promise<string | undefined> {
  let running: Promise<string | undefined> | undefined;
  const onTask = () => {
    running ??= (async () => {
      for (const step of during) await runStep(step, undefined, run);
      return undefined;
    })().catch((error: unknown) => `a step while the task ran failed: ${scrub(error instanceof Error ? error.message : String(error))}`);
  };
  const outcome = await callLongTool(run.host.callLongTool, run.client, call, run.sleep, onTask);
  if (!running) return `expected a task, got a plain call (${describeOutcome(outcome)})`;
  return (await running) ?? (meets(outcome, expect) ? undefined : `expected ${show(expect)}, got ${describeOutcome(outcome)}`);
}

/** Runs one step; answers what went wrong, if anything. */
async function runStep(step: Step, expect: CallExpectation | undefined, run: Run): Promise<string | undefined> {
  const { client, chaos } = run;
  switch (step.kind) {
    case 'call': {
      const outcome = await callTool(client, step.call, run.sleep);
      return meets(outcome, expect!) ? undefined : `expected ${show(expect)}, got ${describeOutcome(outcome)}`;
    }
    case 'concurrent': {
      const outcomes = await Promise.all(Array.from({ length: step.count }, () => callTool(client, step.call, run.sleep)));
      const wrong = outcomes.filter((o) => !meets(o, expect!));
      return wrong.length === 0 ? undefined
        : `expected ${step.count} × ${show(expect)}, got ${wrong.length} otherwise: ${wrong.map(describeOutcome).join('; ')}`;
    }
    case 'task-call':
      return runTaskCall(step.call, step.during, expect!, run);
    case 'faults':
      return void (await chaos.applyFaults(step.faults));
    case 'sleep':
      return void (await run.sleep(step.ms));
    case 'subscribe':
      return void (await request(run, 'resources/subscribe', (options) => client.subscribeResource({ uri: step.uri }, options)));
    case 'set-log-level':
      return void (await request(run, 'logging/setLevel', (options) => client.setLoggingLevel(step.level, options)));
    case 'other-client': {
      const other = newClient(run.host.sdk);
      run.clients.push(other);
      const transport = new run.host.sdk.StreamableHTTPClientTransport(new URL(chaos.url));
      return void (await request(run, 'another client\'s initialize', (options) => other.connect(transport, options)));
    }
  }
}

/**
 * Runs one scenario on the host's runtime: a fresh chaos server with the scenario's options, an
 * official SDK client whose transport goes through the host's resilient fetch, the steps in
 * order, then the trace and the wire (what the scenario checks) against its expectations — the
 * file's own, or the difference it declares for this runtime. Every client and server it
 * starts is stopped, whatever happens; a failure is a report with mismatches, never a throw.
 *
 * @example
 * const report = await runScenario(parseScenario(json, 'evict-amdahl.json'), host);
 * if (!report.ok) console.error(report.mismatches);
 */
export async function runScenario(scenario: Scenario, host: ScenarioHost): Promise<ScenarioReport> {
  const plan = planFor(scenario, host.runtime);
  const sleep = host.sleep ?? defaultSleep;
  const mismatches: string[] = [];
  const events: ResilienceEvent[] = [];
  const clients: ScenarioClient[] = [];
  let chaos: ChaosInstance | undefined;
  let trace: NormalizedEvent[] = [];
  let wire: WireSummary = {};
  try {
    chaos = await host.chaos.start(scenario.chaos);
    if (scenario.connectAfterMs > 0) await sleep(scenario.connectAfterMs);
    const fetch = host.createFetch({ ...scenario.client, onEvent: (event) => events.push(event) });
    const client = newClient(host.sdk);
    clients.push(client);
    const run: Run = { host, chaos, client, clients, sleep };
    const transport = new host.sdk.StreamableHTTPClientTransport(new URL(chaos.url), { fetch });
    await request(run, 'initialize', (options) => client.connect(transport, options));
    await standaloneStreamSettled(chaos, sleep);
    for (const [index, step] of scenario.steps.entries()) {
      const expect = step.kind === 'call' || step.kind === 'concurrent' || step.kind === 'task-call' ? plan.stepExpect(index, step.expect) : undefined;
      const problem = await runStep(step, expect, run);
      if (problem) mismatches.push(`steps[${index}] (${step.kind}): ${problem}`);
    }
    trace = scenarioTrace(events);
    if (!deepEqual(trace, plan.expect.trace)) mismatches.push(`trace: expected ${show(plan.expect.trace)}, got ${show(trace)}`);
    wire = await wireSummary(chaos, plan.expect, sleep);
    for (const [key, actual] of Object.entries(wire)) {
      const expected = plan.expect[key as keyof WireSummary];
      if (!deepEqual(actual, expected)) mismatches.push(`${key}: expected ${show(expected)}, got ${show(actual)}`);
    }
  } catch (error) {
    trace = scenarioTrace(events);
    mismatches.push(`the scenario could not run: ${scrub(error instanceof Error ? error.message : String(error))}`);
  } finally {
    for (const client of clients) await client.close().catch(() => {});
    await chaos?.stop().catch((error: unknown) => mismatches.push(`its chaos server could not be stopped: ${scrub(String(error))}`));
  }
  return scenarioReport({ name: scenario.name, ...(plan.difference ? { difference: plan.difference } : {}), trace, wire, mismatches });
}
