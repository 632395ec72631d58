import { resilienceCodeOf } from '@mcp-resilience/core';
import { HangError, within, type Sleep } from './deadline.ts';
import type { ScenarioClient, ScenarioHost } from './host.ts';
import type { CallExpectation, TaskCall, ToolCall } from './scenario.ts';
import { scrub } from './scrub.ts';

/** How a call ended, in the terms of a {@link CallExpectation}. */
export type CallOutcome =
  | { readonly ok: true; readonly text: string | undefined }
  | { readonly ok: false; readonly error: string; readonly message: string };

/** A call that neither answers nor fails by then is a hang: a failure of the engine, reported as such. */
export const CALL_TIMEOUT_MS = 10_000;
/**
 * The SDK's own request timeout, a backstop behind the runner's deadline: the runner's comes
 * first, so a hang reads the same whatever the SDK line (1.x takes it as `callTool`'s third
 * argument, 2.x does not).
 */
export const SDK_TIMEOUT_MS = CALL_TIMEOUT_MS + 2_000;

const show = (value: unknown) => JSON.stringify(value);

/**
 * The typed code of a failed call (core's `resilienceCodeOf`: a `ResilienceError`, or the SDK
 * error a stream give-up becomes); `rejected` for anything else (what the server or the SDK
 * said, passed through).
 *
 * @example
 * try { await client.callTool(call); } catch (error) { console.log(errorCode(error)); } // 'OUTCOME_UNKNOWN'
 */
export function errorCode(error: unknown): string {
  return resilienceCodeOf(error) ?? 'rejected';
}

/**
 * Calls a tool and says how it ended; never throws. A call that neither answers nor fails
 * within {@link CALL_TIMEOUT_MS} is `hung`, which no expectation accepts.
 */
export function callTool(client: ScenarioClient, call: ToolCall, sleep: Sleep): Promise<CallOutcome> {
  const calling = () => client.callTool({ name: call.tool, arguments: { ...call.arguments } }, undefined, { timeout: SDK_TIMEOUT_MS });
  return outcomeOf(calling, sleep, `tools/call ${call.tool}`);
}

/**
 * Calls a tool through the host's `callLongTool` (the async path) and says how it ended;
 * `onTask` hears of each status of the task. Never throws; a hang is `hung`, as for a plain call.
 */
export function callLongTool(
  run: NonNullable<ScenarioHost['callLongTool']>, client: ScenarioClient, call: TaskCall, sleep: Sleep, onTask: (task: unknown) => void,
): Promise<CallOutcome> {
  const options = { timeout: SDK_TIMEOUT_MS, onTask, ...(call.ttlMs === undefined ? {} : { ttlMs: call.ttlMs }) };
  return outcomeOf(() => run(client as never, { name: call.tool, arguments: { ...call.arguments } }, options), sleep, `callLongTool ${call.tool}`);
}

async function outcomeOf(calling: () => Promise<unknown>, sleep: Sleep, what: string): Promise<CallOutcome> {
  try {
    const result = (await within(calling(), CALL_TIMEOUT_MS, sleep, what)) as { readonly content?: unknown; readonly isError?: unknown };
    if (result.isError === true) return { ok: false, error: 'tool-error', message: show(result.content) };
    const first = (result.content as { type?: string; text?: string }[] | undefined)?.[0];
    return { ok: true, text: first?.type === 'text' ? first.text : undefined };
  } catch (error) {
    const code = error instanceof HangError ? 'hung' : errorCode(error);
    return { ok: false, error: code, message: error instanceof Error ? error.message : String(error) };
  }
}

/** Whether an outcome is what the step expects. */
export function meets(outcome: CallOutcome, expected: CallExpectation): boolean {
  if (expected === 'ok') return outcome.ok;
  if ('text' in expected) return outcome.ok && outcome.text === expected.text;
  return !outcome.ok && outcome.error === expected.error;
}

/** An outcome in a mismatch: `ok "hi"`, `error OUTCOME_UNKNOWN (…)`, with nothing that varies from run to run. */
export function describeOutcome(outcome: CallOutcome): string {
  return outcome.ok ? `ok${outcome.text === undefined ? '' : ` ${show(outcome.text)}`}` : `error ${outcome.error} (${scrub(outcome.message)})`;
}
