import { isDeepStrictEqual } from 'node:util';
import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import { normalizeTrace, resilienceCodeOf, type NormalizedEvent, type ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallExpectation, Scenario, ScenarioClientOptions, Step, ToolCall } from './scenario.ts';

/** The engine's options as a scenario fills them in. */
export type ScenarioFetchOptions = ScenarioClientOptions & { readonly onEvent: (event: ResilienceEvent) => void };

/** Makes the resilient fetch under test (the runtime's `createResilientFetch`). */
export type CreateFetch = (options: ScenarioFetchOptions) => typeof fetch;

/** What one scenario came to: `trace` is the normalized trace (see conformance/scenarios/README.md). */
export interface ScenarioResult {
  readonly name: string;
  readonly ok: boolean;
  readonly trace: readonly NormalizedEvent[];
  readonly mismatches: readonly string[];
}

/** How a call ended, in the terms of a {@link CallExpectation}. */
type Outcome = { readonly ok: true; readonly text: string | undefined } | { readonly ok: false; readonly error: string; readonly message: string };

/** A call that neither answers nor fails by then is a hang: a failure of the engine, reported as such. */
const CALL_TIMEOUT_MS = 10_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const show = (value: unknown) => JSON.stringify(value);

/**
 * The normalized trace of a scenario: {@link normalizeTrace} of every engine event, without
 * the opening `session-started` of session 1 (the same in every scenario), so the trace holds
 * what the churn caused and nothing else.
 */
export function scenarioTrace(events: readonly ResilienceEvent[]): NormalizedEvent[] {
  const trace = normalizeTrace(events);
  const first = trace[0];
  return first?.type === 'session-started' && first.session === 1 ? trace.slice(1) : trace;
}

async function callTool(client: Client, call: ToolCall): Promise<Outcome> {
  try {
    const result = await client.callTool({ name: call.tool, arguments: { ...call.arguments } }, undefined, { timeout: CALL_TIMEOUT_MS });
    if (result.isError === true) return { ok: false, error: 'tool-error', message: show(result.content) };
    const first = (result.content as { type?: string; text?: string }[] | undefined)?.[0];
    return { ok: true, text: first?.type === 'text' ? first.text : undefined };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: errorCode(error), message };
  }
}

/**
 * The typed code of a failed call (core's `resilienceCodeOf`: a `ResilienceError`, or the SDK
 * error a stream give-up becomes); `rejected` for anything else (what the server or the SDK
 * said, passed through).
 */
export function errorCode(error: unknown): string {
  return resilienceCodeOf(error) ?? 'rejected';
}

function describeOutcome(outcome: Outcome): string {
  return outcome.ok ? `ok${outcome.text === undefined ? '' : ` ${show(outcome.text)}`}` : `error ${outcome.error} (${outcome.message})`;
}

function meets(outcome: Outcome, expected: CallExpectation): boolean {
  if (expected === 'ok') return outcome.ok;
  if ('text' in expected) return outcome.ok && outcome.text === expected.text;
  return !outcome.ok && outcome.error === expected.error;
}

/** The POSTs on the wire as `method status sN` (sN: the session the request carried, when the server knew it). */
function posts(chaos: ChaosServer): string[] {
  return chaos.state().log.filter((e) => e.httpMethod === 'POST')
    .map((e) => `${e.rpcMethod ?? '?'} ${e.status ?? '?'}${e.sessionOrdinal === undefined ? '' : ` s${e.sessionOrdinal}`}`);
}

/** The wire log records a status when the server closes the response; give the last ones a moment. */
async function settledLog(chaos: ChaosServer): Promise<void> {
  for (let waited = 0; waited < 1_000; waited += 10) {
    if (chaos.state().log.every((e) => e.status !== undefined || e.httpMethod === 'GET')) return;
    await sleep(10);
  }
}

/**
 * The SDK opens its standalone GET stream after `initialize`, without waiting for it: the
 * steps start once the server holds that stream open or has refused it, so that a fault in
 * the first step cannot race the stream's opening (2 s at most).
 */
async function standaloneStreamSettled(chaos: ChaosServer): Promise<void> {
  for (let waited = 0; waited < 2_000; waited += 10) {
    const { log, sessions } = chaos.state();
    const get = log.find((e) => e.httpMethod === 'GET');
    if (get && (get.status !== undefined || sessions.some((s) => s.openStreams > 0))) return;
    await sleep(10);
  }
}

/**
 * Runs one scenario: a chaos server with the scenario's options, an official SDK 1.x client
 * whose transport goes through the fetch `createFetch` makes, the steps in order, then the
 * comparison of the trace (and ledger, wire, sessions when the scenario names them) with what
 * it expects. Every server and client it starts is stopped, whatever happens.
 *
 * @example
 * const result = await runScenario(parseScenario(json), createResilientFetch);
 * if (!result.ok) console.error(result.mismatches);
 */
export async function runScenario(scenario: Scenario, createFetch: CreateFetch): Promise<ScenarioResult> {
  const mismatches: string[] = [];
  const events: ResilienceEvent[] = [];
  const clients: Client[] = [];
  let chaos: ChaosServer | undefined;
  let trace: NormalizedEvent[] = [];
  try {
    chaos = await startChaosServer(scenario.chaos);
    if (scenario.connectAfterMs > 0) await sleep(scenario.connectAfterMs);
    const fetch = createFetch({ ...scenario.client, onEvent: (event) => events.push(event) });
    const client = new Client({ name: 'node-sample', version: '0.0.0' });
    client.onerror = () => {}; // the standalone stream's reconnects are the SDK's business; the steps judge the calls
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url), { fetch }));
    await standaloneStreamSettled(chaos);

    for (const [index, step] of scenario.steps.entries()) {
      const problem = await runStep(step, client, chaos, clients);
      if (problem) mismatches.push(`steps[${index}] (${step.kind}): ${problem}`);
    }
    trace = scenarioTrace(events);
    compare(mismatches, 'trace', trace, scenario.expect.trace);
    const { ledger, posts: expectedPosts, postCounts, requestCounts, sessions } = scenario.expect;
    if (expectedPosts || postCounts || requestCounts) await settledLog(chaos);
    const state = chaos.state();
    if (ledger) compare(mismatches, 'ledger', state.ledger, ledger);
    if (expectedPosts) compare(mismatches, 'posts', posts(chaos), expectedPosts);
    if (postCounts) {
      const wire = posts(chaos).map((p) => p.replace(/ s\d+$/, ''));
      const actual = Object.fromEntries(Object.keys(postCounts).map((key) => [key, wire.filter((p) => p === key).length]));
      compare(mismatches, 'postCounts', actual, postCounts);
    }
    if (requestCounts) {
      const actual = Object.fromEntries(Object.keys(requestCounts).map((m) => [m, state.log.filter((e) => e.httpMethod === m).length]));
      compare(mismatches, 'requestCounts', actual, requestCounts);
    }
    if (sessions) {
      const actual = state.sessions.map((s) => ({ ordinal: s.ordinal, subscriptions: [...s.subscriptions], ...(s.logLevel === undefined ? {} : { logLevel: s.logLevel }) }));
      compare(mismatches, 'sessions', actual, sessions);
    }
  } catch (error) {
    trace = scenarioTrace(events);
    mismatches.push(`the scenario could not run: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    for (const client of clients) await client.close().catch(() => {});
    await chaos?.stop();
  }
  return { name: scenario.name, ok: mismatches.length === 0, trace, mismatches };
}

function compare(mismatches: string[], what: string, actual: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(actual, expected)) mismatches.push(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}

/** Runs one step; answers what went wrong, if anything. */
async function runStep(step: Step, client: Client, chaos: ChaosServer, clients: Client[]): Promise<string | undefined> {
  switch (step.kind) {
    case 'call': {
      const outcome = await callTool(client, step.call);
      return meets(outcome, step.expect) ? undefined : `expected ${show(step.expect)}, got ${describeOutcome(outcome)}`;
    }
    case 'concurrent': {
      const outcomes = await Promise.all(Array.from({ length: step.count }, () => callTool(client, step.call)));
      const wrong = outcomes.filter((o) => !meets(o, step.expect));
      return wrong.length === 0 ? undefined
        : `expected ${step.count} × ${show(step.expect)}, got ${wrong.length} otherwise: ${wrong.map(describeOutcome).join('; ')}`;
    }
    case 'faults':
      await chaos.applyFaults(step.faults);
      return undefined;
    case 'sleep':
      await sleep(step.ms);
      return undefined;
    case 'subscribe':
      await client.subscribeResource({ uri: step.uri });
      return undefined;
    case 'set-log-level':
      await client.setLoggingLevel(step.level);
      return undefined;
    case 'other-client': {
      const other = new Client({ name: 'node-sample-other', version: '0.0.0' });
      other.onerror = () => {};
      clients.push(other);
      await other.connect(new StreamableHTTPClientTransport(new URL(chaos.url)));
      return undefined;
    }
  }
}
