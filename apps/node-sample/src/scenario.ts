import { DIALECT_NAMES, parseFaults, type DialectName, type Fault } from '@mcp-resilience/chaos';
import { ERROR_CODES, type ErrorCode, type NormalizedEvent } from '@mcp-resilience/core';


/** The HTTP methods of Streamable HTTP, as `requestCounts` names them. */
export const HTTP_METHODS = ['POST', 'GET', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What a call must come to: answered (`ok`, or with this first text), or failed. */
export type CallExpectation = 'ok' | { readonly text: string } | { readonly error: ErrorCode | 'rejected' };

export interface ToolCall {
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

export type Step =
  | { readonly kind: 'call'; readonly call: ToolCall; readonly expect: CallExpectation }
  | { readonly kind: 'concurrent'; readonly count: number; readonly call: ToolCall; readonly expect: CallExpectation }
  | { readonly kind: 'faults'; readonly faults: readonly Fault[] }
  | { readonly kind: 'sleep'; readonly ms: number }
  | { readonly kind: 'subscribe'; readonly uri: string }
  | { readonly kind: 'set-log-level'; readonly level: LogLevel }
  | { readonly kind: 'other-client' };

/** Engine options a JSON file can carry (functions — fetch, clock, jitter, onEvent — stay in code). */
export interface ScenarioClientOptions {
  readonly idleBudgetMs?: number;
  readonly serverIdleBudgetMs?: number;
  readonly retryAfterCapMs?: number;
  readonly replay?: 'safe' | 'always' | 'never';
  readonly tools?: { readonly readOnlyTools?: readonly string[]; readonly idempotentTools?: readonly string[]; readonly trustAnnotations?: boolean };
  readonly backoff?: { readonly initialMs?: number; readonly maxMs?: number; readonly factor?: number; readonly maxAttempts?: number; readonly maxTotalDelayMs?: number };
  readonly retryBudget?: false | { readonly ratio?: number; readonly minPerWindow?: number; readonly windowMs?: number };
}

export interface ScenarioExpectation {
  readonly trace: readonly NormalizedEvent[];
  readonly ledger?: Readonly<Record<string, number>>;
  readonly posts?: readonly string[];
  readonly postCounts?: Readonly<Record<string, number>>;
  readonly requestCounts?: Readonly<Partial<Record<HttpMethod, number>>>;
  readonly sessions?: readonly { readonly ordinal: number; readonly subscriptions: readonly string[]; readonly logLevel?: string }[];
}

export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly chaos: { readonly dialect?: DialectName; readonly faults?: readonly Fault[] };
  readonly connectAfterMs: number;
  readonly client: ScenarioClientOptions;
  readonly steps: readonly Step[];
  readonly expect: ScenarioExpectation;
}

/** A scenario file that cannot be mapped: the runner refuses it rather than guess. */
export class ScenarioError extends Error {
  override name = 'ScenarioError';
}

type Raw = Record<string, unknown>;

function fail(where: string, what: string): never {
  throw new ScenarioError(`${where}: ${what}`);
}

function object(value: unknown, where: string, keys: readonly string[], required: readonly string[] = []): Raw {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(where, 'must be an object');
  const raw = value as Raw;
  for (const key of Object.keys(raw)) if (!keys.includes(key)) fail(where, `unknown field "${key}" (known: ${keys.join(', ')})`);
  for (const key of required) if (raw[key] === undefined) fail(where, `missing "${key}"`);
  return raw;
}

function int(value: unknown, where: string, min = 0, max = 600_000): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(where, `must be an integer from ${min} to ${max}`);
  return value;
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string' || value === '') fail(where, 'must be a non-empty string');
  return value;
}

function strings(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) fail(where, 'must be a list of strings');
  return value as string[];
}

function counts(value: unknown, where: string): Record<string, number> {
  const raw = object(value, where, Object.keys(value ?? {}));
  for (const [key, n] of Object.entries(raw)) int(n, `${where}.${key}`, 0, 1_000_000);
  return raw as Record<string, number>;
}

function faults(value: unknown, where: string): Fault[] {
  if (!Array.isArray(value)) fail(where, 'must be a list of faults');
  try {
    return parseFaults(value);
  } catch (error) {
    return fail(where, (error as Error).message);
  }
}

function toolCall(value: unknown, where: string): ToolCall {
  const raw = object(value, where, ['tool', 'arguments'], ['tool']);
  const args = raw.arguments === undefined ? {} : object(raw.arguments, `${where}.arguments`, Object.keys(raw.arguments ?? {}));
  return { tool: text(raw.tool, `${where}.tool`), arguments: args };
}

function callExpectation(value: unknown, where: string): CallExpectation {
  if (value === 'ok') return 'ok';
  if (typeof value === 'object' && value !== null && 'text' in value) {
    return { text: String(object(value, where, ['text']).text) };
  }
  const raw = object(value, where, ['error'], ['error']);
  if (raw.error !== 'rejected' && !(ERROR_CODES as readonly unknown[]).includes(raw.error)) {
    fail(`${where}.error`, `must be "rejected" or one of ${ERROR_CODES.join(', ')}`);
  }
  return { error: raw.error as ErrorCode | 'rejected' };
}

/** The step kinds, each known by the one field that names it. */
const STEP_KINDS = ['call', 'concurrent', 'faults', 'sleepMs', 'subscribe', 'setLogLevel', 'otherClient'] as const;

function step(value: unknown, where: string): Step {
  const raw = object(value, where, [...STEP_KINDS, 'expect']);
  const kinds = STEP_KINDS.filter((k) => raw[k] !== undefined && !(k === 'call' && raw.concurrent !== undefined));
  if (kinds.length !== 1) fail(where, `must be exactly one step kind of ${STEP_KINDS.join(', ')}`);
  const kind = kinds[0]!;
  const calls = kind === 'call' || kind === 'concurrent';
  if (!calls && raw.expect !== undefined) fail(where, `"expect" belongs to call steps only`);
  if (calls && raw.expect === undefined) fail(where, 'a call step needs "expect"');
  switch (kind) {
    case 'call':
      return { kind, call: toolCall(raw.call, `${where}.call`), expect: callExpectation(raw.expect, `${where}.expect`) };
    case 'concurrent':
      if (raw.call === undefined) fail(where, 'a concurrent step needs "call"');
      return {
        kind, count: int(raw.concurrent, `${where}.concurrent`, 1, 100), call: toolCall(raw.call, `${where}.call`),
        expect: callExpectation(raw.expect, `${where}.expect`),
      };
    case 'faults':
      return { kind, faults: faults(raw.faults, `${where}.faults`) };
    case 'sleepMs':
      return { kind: 'sleep', ms: int(raw.sleepMs, `${where}.sleepMs`, 0, 30_000) };
    case 'subscribe':
      return { kind, uri: text(raw.subscribe, `${where}.subscribe`) };
    case 'setLogLevel':
      if (!(LOG_LEVELS as readonly unknown[]).includes(raw.setLogLevel)) fail(`${where}.setLogLevel`, `must be one of ${LOG_LEVELS.join(', ')}`);
      return { kind: 'set-log-level', level: raw.setLogLevel as LogLevel };
    case 'otherClient':
      if (raw.otherClient !== 'connect') fail(`${where}.otherClient`, 'must be "connect"');
      return { kind: 'other-client' };
  }
}

function clientOptions(value: unknown, where: string): ScenarioClientOptions {
  const raw = object(value ?? {}, where, ['idleBudgetMs', 'serverIdleBudgetMs', 'retryAfterCapMs', 'replay', 'tools', 'backoff', 'retryBudget']);
  for (const key of ['idleBudgetMs', 'serverIdleBudgetMs', 'retryAfterCapMs'] as const) {
    if (raw[key] !== undefined) int(raw[key], `${where}.${key}`, 0, 86_400_000);
  }
  if (raw.replay !== undefined && !['safe', 'always', 'never'].includes(raw.replay as string)) fail(`${where}.replay`, 'must be safe, always or never');
  if (raw.tools !== undefined) {
    const tools = object(raw.tools, `${where}.tools`, ['readOnlyTools', 'idempotentTools', 'trustAnnotations']);
    for (const key of ['readOnlyTools', 'idempotentTools'] as const) if (tools[key] !== undefined) strings(tools[key], `${where}.tools.${key}`);
    if (tools.trustAnnotations !== undefined && typeof tools.trustAnnotations !== 'boolean') fail(`${where}.tools.trustAnnotations`, 'must be a boolean');
  }
  if (raw.backoff !== undefined) {
    const backoff = object(raw.backoff, `${where}.backoff`, ['initialMs', 'maxMs', 'factor', 'maxAttempts', 'maxTotalDelayMs']);
    for (const [key, n] of Object.entries(backoff)) if (typeof n !== 'number') fail(`${where}.backoff.${key}`, 'must be a number');
  }
  if (raw.retryBudget !== undefined && raw.retryBudget !== false) {
    const budget = object(raw.retryBudget, `${where}.retryBudget`, ['ratio', 'minPerWindow', 'windowMs']);
    for (const [key, n] of Object.entries(budget)) if (typeof n !== 'number') fail(`${where}.retryBudget.${key}`, 'must be a number');
  }
  return raw as ScenarioClientOptions;
}

function expectation(value: unknown, where: string): ScenarioExpectation {
  const raw = object(value, where, ['trace', 'ledger', 'posts', 'postCounts', 'requestCounts', 'sessions'], ['trace']);
  if (!Array.isArray(raw.trace)) fail(`${where}.trace`, 'must be a list of normalized events');
  raw.trace.forEach((event, i) => {
    const e = object(event, `${where}.trace[${i}]`, Object.keys(event ?? {}), ['type']);
    text(e.type, `${where}.trace[${i}].type`);
  });
  if (raw.ledger !== undefined) counts(raw.ledger, `${where}.ledger`);
  if (raw.posts !== undefined) strings(raw.posts, `${where}.posts`);
  if (raw.postCounts !== undefined) counts(raw.postCounts, `${where}.postCounts`);
  if (raw.requestCounts !== undefined) {
    counts(object(raw.requestCounts, `${where}.requestCounts`, HTTP_METHODS), `${where}.requestCounts`);
  }
  if (raw.sessions !== undefined) {
    if (!Array.isArray(raw.sessions)) fail(`${where}.sessions`, 'must be a list');
    raw.sessions.forEach((s, i) => {
      const session = object(s, `${where}.sessions[${i}]`, ['ordinal', 'subscriptions', 'logLevel'], ['ordinal', 'subscriptions']);
      int(session.ordinal, `${where}.sessions[${i}].ordinal`, 1, 1_000_000);
      strings(session.subscriptions, `${where}.sessions[${i}].subscriptions`);
    });
  }
  return raw as unknown as ScenarioExpectation;
}

/**
 * Reads a scenario (already parsed JSON) and checks every field: an unknown field, step kind,
 * fault or error code is a {@link ScenarioError}, never silently skipped.
 *
 * @example
 * parseScenario(JSON.parse(readFileSync('conformance/scenarios/evict-amdahl.json', 'utf8')), 'evict-amdahl.json');
 */
export function parseScenario(value: unknown, where = 'scenario'): Scenario {
  const raw = object(value, where, ['name', 'description', 'chaos', 'connectAfterMs', 'client', 'steps', 'expect'], ['name', 'description', 'steps', 'expect']);
  const chaos = object(raw.chaos ?? {}, `${where}.chaos`, ['dialect', 'faults']);
  if (chaos.dialect !== undefined && !(DIALECT_NAMES as readonly unknown[]).includes(chaos.dialect)) {
    fail(`${where}.chaos.dialect`, `must be one of ${DIALECT_NAMES.join(', ')}`);
  }
  if (!Array.isArray(raw.steps) || raw.steps.length === 0) fail(`${where}.steps`, 'must be a non-empty list');
  return {
    name: text(raw.name, `${where}.name`),
    description: text(raw.description, `${where}.description`),
    chaos: {
      ...(chaos.dialect === undefined ? {} : { dialect: chaos.dialect as DialectName }),
      ...(chaos.faults === undefined ? {} : { faults: faults(chaos.faults, `${where}.chaos.faults`) }),
    },
    connectAfterMs: raw.connectAfterMs === undefined ? 0 : int(raw.connectAfterMs, `${where}.connectAfterMs`, 0, 10_000),
    client: clientOptions(raw.client, `${where}.client`),
    steps: raw.steps.map((s, i) => step(s, `${where}.steps[${i}]`)),
    expect: expectation(raw.expect, `${where}.expect`),
  };
}
