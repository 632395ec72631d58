import { DIALECT_NAMES, TASK_BINDINGS } from '@mcp-resilience/chaos/faults';
import { parseDifferences } from './parse-differences.ts';
import { parseExpectation } from './parse-expectation.ts';
import { bool, callExpectation, fail, faults, int, object, oneOf, strings, text, toolCall } from './parse-fields.ts';
import {
  LOG_LEVELS, type DuringStep, type Scenario, type ScenarioChaosOptions, type ScenarioClientOptions, type Step, type TaskCall,
} from './scenario.ts';

/** The step kinds, each known by the one field that names it. */
const STEP_KINDS = ['call', 'concurrent', 'taskCall', 'faults', 'sleepMs', 'subscribe', 'setLogLevel', 'otherClient'] as const;

function taskCall(value: unknown, where: string): TaskCall {
  const raw = object(value, where, ['tool', 'arguments', 'ttlMs'], ['tool']);
  const { ttlMs, ...call } = raw;
  return { ...toolCall(call, where), ...(ttlMs === undefined ? {} : { ttlMs: int(ttlMs, `${where}.ttlMs`, 1, 3_600_000) }) };
}

/** What runs while a task runs: faults and waits only (the call itself is in flight). */
function during(value: unknown, where: string): DuringStep[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(where, 'must be a list of steps (faults, sleepMs)');
  return value.map((s, i) => {
    const parsed = step(s, `${where}[${i}]`);
    if (parsed.kind !== 'faults' && parsed.kind !== 'sleep') fail(`${where}[${i}]`, 'only faults and sleepMs run while a task runs');
    return parsed;
  });
}

function step(value: unknown, where: string): Step {
  const raw = object(value, where, [...STEP_KINDS, 'expect', 'during']);
  const kinds = STEP_KINDS.filter((k) => raw[k] !== undefined && !(k === 'call' && raw.concurrent !== undefined));
  if (kinds.length !== 1) fail(where, `must be exactly one step kind of ${STEP_KINDS.join(', ')}`);
  const kind = kinds[0]!;
  const calls = kind === 'call' || kind === 'concurrent' || kind === 'taskCall';
  if (!calls && raw.expect !== undefined) fail(where, '"expect" belongs to call steps only');
  if (calls && raw.expect === undefined) fail(where, 'a call step needs "expect"');
  if (kind !== 'taskCall' && raw.during !== undefined) fail(where, '"during" belongs to taskCall steps only');
  switch (kind) {
    case 'call':
      return { kind, call: toolCall(raw.call, `${where}.call`), expect: callExpectation(raw.expect, `${where}.expect`) };
    case 'concurrent':
      if (raw.call === undefined) fail(where, 'a concurrent step needs "call"');
      return {
        kind, count: int(raw.concurrent, `${where}.concurrent`, 1, 100), call: toolCall(raw.call, `${where}.call`),
        expect: callExpectation(raw.expect, `${where}.expect`),
      };
    case 'taskCall':
      return {
        kind: 'task-call', call: taskCall(raw.taskCall, `${where}.taskCall`), during: during(raw.during, `${where}.during`),
        expect: callExpectation(raw.expect, `${where}.expect`),
      };
    case 'faults':
      return { kind, faults: faults(raw.faults, `${where}.faults`) };
    case 'sleepMs':
      return { kind: 'sleep', ms: int(raw.sleepMs, `${where}.sleepMs`, 0, 30_000) };
    case 'subscribe':
      return { kind, uri: text(raw.subscribe, `${where}.subscribe`) };
    case 'setLogLevel':
      return { kind: 'set-log-level', level: oneOf(raw.setLogLevel, `${where}.setLogLevel`, LOG_LEVELS) };
    case 'otherClient':
      if (raw.otherClient !== 'connect') fail(`${where}.otherClient`, 'must be "connect"');
      return { kind: 'other-client' };
  }
}

function numbers(value: unknown, where: string, keys: readonly string[]): void {
  const raw = object(value, where, keys);
  for (const [key, n] of Object.entries(raw)) if (typeof n !== 'number' || !Number.isFinite(n)) fail(`${where}.${key}`, 'must be a number');
}

function clientOptions(value: unknown, where: string): ScenarioClientOptions {
  const raw = object(value ?? {}, where, ['idleBudgetMs', 'serverIdleBudgetMs', 'retryAfterCapMs', 'replay', 'tools', 'backoff', 'retryBudget']);
  for (const key of ['idleBudgetMs', 'serverIdleBudgetMs', 'retryAfterCapMs'] as const) {
    if (raw[key] !== undefined) int(raw[key], `${where}.${key}`, 0, 86_400_000);
  }
  if (raw.replay !== undefined) oneOf(raw.replay, `${where}.replay`, ['safe', 'always', 'never']);
  if (raw.tools !== undefined) {
    const tools = object(raw.tools, `${where}.tools`, ['readOnlyTools', 'idempotentTools', 'trustAnnotations']);
    for (const key of ['readOnlyTools', 'idempotentTools'] as const) if (tools[key] !== undefined) strings(tools[key], `${where}.tools.${key}`);
    if (tools.trustAnnotations !== undefined) bool(tools.trustAnnotations, `${where}.tools.trustAnnotations`);
  }
  if (raw.backoff !== undefined) numbers(raw.backoff, `${where}.backoff`, ['initialMs', 'maxMs', 'factor', 'maxAttempts', 'maxTotalDelayMs']);
  if (raw.retryBudget !== undefined && raw.retryBudget !== false) numbers(raw.retryBudget, `${where}.retryBudget`, ['ratio', 'minPerWindow', 'windowMs']);
  return raw as ScenarioClientOptions;
}

function chaosOptions(value: unknown, where: string): ScenarioChaosOptions {
  const raw = object(value ?? {}, where, ['mode', 'dialect', 'faults', 'jsonResponses', 'exposeSessionId', 'taskBinding']);
  return {
    ...(raw.mode === undefined ? {} : { mode: oneOf(raw.mode, `${where}.mode`, ['legacy', 'modern']) }),
    ...(raw.dialect === undefined ? {} : { dialect: oneOf(raw.dialect, `${where}.dialect`, DIALECT_NAMES) }),
    ...(raw.faults === undefined ? {} : { faults: faults(raw.faults, `${where}.faults`) }),
    ...(raw.jsonResponses === undefined ? {} : { jsonResponses: bool(raw.jsonResponses, `${where}.jsonResponses`) }),
    ...(raw.exposeSessionId === undefined ? {} : { exposeSessionId: bool(raw.exposeSessionId, `${where}.exposeSessionId`) }),
    ...(raw.taskBinding === undefined ? {} : { taskBinding: oneOf(raw.taskBinding, `${where}.taskBinding`, TASK_BINDINGS) }),
  };
}

const FIELDS = ['name', 'description', 'chaos', 'connectAfterMs', 'client', 'steps', 'expect', 'differences'];

/**
 * Reads a scenario (parsed JSON) and checks every field: an unknown field, step kind, fault,
 * dialect, error code or runtime is a `ScenarioError` (`SCENARIO_INVALID`), never skipped or
 * guessed. `where` names the source in messages (the file name).
 *
 * @example
 * const scenario = parseScenario(JSON.parse(text), 'evict-amdahl.json');
 * scenario.steps.length; // 3
 */
export function parseScenario(value: unknown, where = 'scenario'): Scenario {
  const raw = object(value, where, FIELDS, ['name', 'description', 'steps', 'expect']);
  if (!Array.isArray(raw.steps) || raw.steps.length === 0) fail(`${where}.steps`, 'must be a non-empty list');
  const steps = raw.steps.map((s, i) => step(s, `${where}.steps[${i}]`));
  return {
    name: text(raw.name, `${where}.name`),
    description: text(raw.description, `${where}.description`),
    chaos: chaosOptions(raw.chaos, `${where}.chaos`),
    connectAfterMs: raw.connectAfterMs === undefined ? 0 : int(raw.connectAfterMs, `${where}.connectAfterMs`, 0, 10_000),
    client: clientOptions(raw.client, `${where}.client`),
    steps,
    expect: parseExpectation(raw.expect, `${where}.expect`),
    differences: parseDifferences(raw.differences, `${where}.differences`, steps),
  };
}
