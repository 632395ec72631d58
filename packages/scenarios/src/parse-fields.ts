import { parseFaults, type Fault } from '@mcp-resilience/chaos/faults';
import { ERROR_CODES, type ErrorCode } from '@mcp-resilience/core';
import { ScenarioError } from './errors.ts';
import type { CallExpectation, ToolCall } from './scenario.ts';

/** A JSON object as it came. */
export type Raw = Record<string, unknown>;

/** Refuses a field: `where` names it the way the file spells it (`evict.json.steps[2].expect`). */
export function fail(where: string, what: string): never {
  throw new ScenarioError('SCENARIO_INVALID', `${where}: ${what}`);
}

/** An object with only `keys` (and all of `required`). */
export function object(value: unknown, where: string, keys: readonly string[], required: readonly string[] = []): Raw {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(where, 'must be an object');
  const raw = value as Raw;
  for (const key of Object.keys(raw)) if (!keys.includes(key)) fail(where, `unknown field "${key}" (known: ${keys.join(', ')})`);
  for (const key of required) if (raw[key] === undefined) fail(where, `missing "${key}"`);
  return raw;
}

/** An object whose keys are free (tool arguments, counts). */
export function record(value: unknown, where: string): Raw {
  return object(value, where, Object.keys(value ?? {}));
}

export function int(value: unknown, where: string, min = 0, max = 600_000): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(where, `must be an integer from ${min} to ${max}`);
  return value;
}

export function text(value: unknown, where: string): string {
  if (typeof value !== 'string' || value === '') fail(where, 'must be a non-empty string');
  return value;
}

export function bool(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') fail(where, 'must be true or false');
  return value;
}

export function strings(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) fail(where, 'must be a list of strings');
  return value as string[];
}

export function counts(value: unknown, where: string): Record<string, number> {
  const raw = record(value, where);
  for (const [key, n] of Object.entries(raw)) int(n, `${where}.${key}`, 0, 1_000_000);
  return raw as Record<string, number>;
}

export function oneOf<const T extends string>(value: unknown, where: string, allowed: readonly T[]): T {
  if (!(allowed as readonly unknown[]).includes(value)) fail(where, `must be one of ${allowed.join(', ')}`);
  return value as T;
}

/** Faults as the chaos server takes them: what it would refuse, the runner refuses first. */
export function faults(value: unknown, where: string): Fault[] {
  if (!Array.isArray(value)) fail(where, 'must be a list of faults');
  try {
    return parseFaults(value);
  } catch (error) {
    return fail(where, (error as Error).message);
  }
}

export function toolCall(value: unknown, where: string): ToolCall {
  const raw = object(value, where, ['tool', 'arguments'], ['tool']);
  const args = raw.arguments === undefined ? {} : record(raw.arguments, `${where}.arguments`);
  return { tool: text(raw.tool, `${where}.tool`), arguments: args };
}

export function callExpectation(value: unknown, where: string): CallExpectation {
  if (value === 'ok') return 'ok';
  if (typeof value === 'object' && value !== null && 'text' in value) {
    const raw = object(value, where, ['text']);
    if (typeof raw.text !== 'string') fail(`${where}.text`, 'must be a string');
    return { text: raw.text };
  }
  const raw = object(value, where, ['error'], ['error']);
  if (raw.error !== 'rejected' && !(ERROR_CODES as readonly unknown[]).includes(raw.error)) {
    fail(`${where}.error`, `must be "rejected" or one of ${ERROR_CODES.join(', ')}`);
  }
  return { error: raw.error as ErrorCode | 'rejected' };
}
