import {
  backoffDelay, canRetry, classify, createBackoff, createRetryBudget, createRetryPolicy, decide, equalJitter, fullJitter,
  isReplaySafe, isResilienceError, isSessionful, noJitter, parseRetryAfter, recordCall, recordRetry, retryAfterMs,
  revisionTraits, type Backoff, type CallState, type RestartWait, type Observation, type Operation, type RetryBudget,
  type RetryBudgetState, type RetryPolicy, type SessionGoneDialect, type ToolTrust, type Verdict,
} from '@mcp-resilience/core';
import { list, need, oneOf, onlyKeys, optional, record } from './json-input.ts';

/** Runs one case's input through core and returns what core answered, shaped like `expect`. */
export type Checker = (input: Record<string, unknown>, where: string) => unknown;

const JITTERS = { none: noJitter, equal: equalJitter, full: fullJitter } as const;
const JITTER_NAMES = Object.keys(JITTERS) as (keyof typeof JITTERS)[];
const BACKOFF_KEYS = ['initialMs', 'maxMs', 'factor', 'maxAttempts', 'maxTotalDelayMs', 'jitter'];
const RESTART_WAIT_KEYS = ['initialMs', 'maxMs', 'factor', 'maxWaitMs', 'jitter'];

/**
 * What core threw, when it threw a `ResilienceError` (an invalid option); other errors pass.
 *
 * @example
 * capture(() => createBackoff({ initialMs: -1 })) // { thrown: { code: 'INVALID_OPTION', ... } }
 */
export function capture(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    if (!isResilienceError(error)) throw error;
    return { thrown: { code: error.code, message: error.message, details: error.details } };
  }
}

/** Backoff-like overrides (the backoff, the restart wait) with the jitter by name. */
function delayOverrides<T>(value: unknown, keys: readonly string[], where: string): Partial<T> {
  if (value === undefined) return {};
  const o = record(value, where);
  onlyKeys(o, keys, where);
  const { jitter, ...numbers } = o;
  const named = jitter === undefined ? {} : { jitter: JITTERS[oneOf(o, 'jitter', JITTER_NAMES, where)] };
  return { ...(numbers as Partial<T>), ...named };
}

const backoffOverrides = (value: unknown, where: string) => delayOverrides<Backoff>(value, BACKOFF_KEYS, `${where} backoff`);

function policyOf(value: unknown, where: string): RetryPolicy | undefined {
  if (value === undefined) return undefined;
  const o = record(value, `${where} policy`);
  onlyKeys(o, ['backoff', 'retryAfterCapMs', 'maxResumes', 'replay', 'tools', 'restartWait'], `${where} policy`);
  if (o.replay !== undefined) oneOf(o, 'replay', ['safe', 'always', 'never'], `${where} policy`);
  if (o.tools !== undefined) record(o.tools, `${where} policy.tools`);
  const restartWait = delayOverrides<RestartWait>(o.restartWait, RESTART_WAIT_KEYS, `${where} restartWait`);
  return createRetryPolicy({ ...(o as Partial<RetryPolicy>), backoff: backoffOverrides(o.backoff, where), restartWait });
}

const revisions: Checker = (input, where) => {
  onlyKeys(input, ['revision'], where);
  const revision = optional(input, 'revision', 'string', where);
  return { traits: revisionTraits(revision), sessionful: isSessionful(revision) };
};

const classifyCheck: Checker = (input, where) => {
  need(input, 'kind', 'string', where);
  need(input, 'sessionIdSent', 'boolean', where);
  const { dialects, ...observation } = input;
  const extra = dialects === undefined ? {} : { dialects: list(input, 'dialects', where) as SessionGoneDialect[] };
  return classify(observation as unknown as Observation, extra);
};

const retryAfter: Checker = (input, where) => {
  onlyKeys(input, ['header', 'nowMs'], where);
  const header = input.header === null ? null : optional(input, 'header', 'string', where);
  const nowMs = optional(input, 'nowMs', 'number', where);
  const parsed = parseRetryAfter(header);
  return { parsed: parsed ?? null, ...(nowMs === undefined ? {} : { waitMs: retryAfterMs(parsed, nowMs) ?? null }) };
};

const backoff: Checker = (input, where) => {
  onlyKeys(input, ['backoff', 'attempt', 'random'], where);
  const attempt = need(input, 'attempt', 'number', where);
  const random = need(input, 'random', 'number', where);
  return capture(() => ({ delayMs: backoffDelay(createBackoff(backoffOverrides(input.backoff, where)), attempt, random) }));
};

const retryBudget: Checker = (input, where) => {
  onlyKeys(input, ['budget', 'steps'], where);
  const overrides = input.budget === undefined ? {} : (record(input.budget, `${where} budget`) as Partial<RetryBudget>);
  const steps = list(input, 'steps', where);
  return capture(() => {
    const budget = createRetryBudget(overrides);
    let state: RetryBudgetState | undefined;
    const results = steps.map((value, i) => {
      const step = record(value, `${where} step ${i}`);
      onlyKeys(step, ['op', 'nowMs'], `${where} step ${i}`);
      const op = oneOf(step, 'op', ['recordCall', 'recordRetry', 'canRetry'], `${where} step ${i}`);
      const nowMs = need(step, 'nowMs', 'number', `${where} step ${i}`);
      if (op === 'canRetry') return { canRetry: canRetry(state, budget, nowMs) };
      state = (op === 'recordCall' ? recordCall : recordRetry)(state, budget, nowMs);
      return { state };
    });
    return { results };
  });
};

const replaySafety: Checker = (input, where) => {
  onlyKeys(input, ['operation', 'policy', 'tools'], where);
  const operation = record(input.operation, `${where} operation`) as Operation;
  const policy = input.policy === undefined ? undefined : oneOf(input, 'policy', ['safe', 'always', 'never'], where);
  const tools = input.tools === undefined ? undefined : (record(input.tools, `${where} tools`) as ToolTrust);
  return { safe: isReplaySafe(operation, policy, tools) };
};

const decideCheck: Checker = (input, where) => {
  onlyKeys(input, ['verdict', 'call', 'operation', 'revision', 'policy', 'nowMs', 'random', 'retryBudgetAllows'], where);
  const verdict = record(input.verdict, `${where} verdict`);
  need(verdict, 'kind', 'string', `${where} verdict`);
  const call = record(input.call, `${where} call`);
  for (const key of ['replays', 'retries', 'resumes', 'delayMs']) need(call, key, 'number', `${where} call`);
  for (const key of ['waits', 'waitUntilMs']) optional(call, key, 'number', `${where} call`);
  const operation = record(input.operation, `${where} operation`);
  const revision = optional(input, 'revision', 'string', where);
  const allows = optional(input, 'retryBudgetAllows', 'boolean', where);
  return capture(() => {
    const policy = policyOf(input.policy, where);
    return decide({
      verdict: verdict as unknown as Verdict, call: call as unknown as CallState, operation: operation as Operation,
      nowMs: need(input, 'nowMs', 'number', where), random: need(input, 'random', 'number', where),
      ...(revision === undefined ? {} : { revision }), ...(policy === undefined ? {} : { policy }),
      ...(allows === undefined ? {} : { retryBudgetAllows: allows }),
    });
  });
};

/** Checkers of the areas about verdicts and decisions. */
export const DECISION_CHECKERS: Readonly<Record<string, Checker>> = {
  revisions, classify: classifyCheck, 'retry-after': retryAfter, backoff,
  'retry-budget': retryBudget, 'replay-safety': replaySafety, decide: decideCheck,
};
