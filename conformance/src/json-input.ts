/**
 * Readers for the untyped JSON of a vector: each checks one field and throws a
 * {@link VectorError} naming where it is and what was expected. Runtime-neutral.
 */

/** A vector file or case that cannot be mapped onto a check. */
export class VectorError extends Error {
  override readonly name = 'VectorError';
}

/**
 * Throws a {@link VectorError} for `where`.
 *
 * @example
 * fail('case "x"', 'input.kind must be a string');
 */
export function fail(where: string, message: string): never {
  throw new VectorError(`${where}: ${message}`);
}

/**
 * Whether a value is a plain JSON object (not null, not an array).
 *
 * @example
 * isRecord({}) // true
 * isRecord([]) // false
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The value as an object, or a {@link VectorError}.
 *
 * @example
 * const input = record(vectorCase.input, 'case "x" input');
 */
export function record(value: unknown, where: string): Record<string, unknown> {
  if (!isRecord(value)) fail(where, 'must be a JSON object');
  return value;
}

type Kind = 'string' | 'number' | 'boolean';
type Of<K extends Kind> = K extends 'string' ? string : K extends 'number' ? number : boolean;

/**
 * A required field of a given JSON type.
 *
 * @example
 * const nowMs = need(input, 'nowMs', 'number', where);
 */
export function need<K extends Kind>(obj: Record<string, unknown>, key: string, kind: K, where: string): Of<K> {
  const value = obj[key];
  if (typeof value !== kind) fail(where, `"${key}" must be a ${kind}`);
  return value as Of<K>;
}

/**
 * An optional field of a given JSON type (absent reads as `undefined`).
 *
 * @example
 * const id = optional(step, 'id', 'string', where);
 */
export function optional<K extends Kind>(obj: Record<string, unknown>, key: string, kind: K, where: string): Of<K> | undefined {
  return obj[key] === undefined ? undefined : need(obj, key, kind, where);
}

/**
 * A required field whose value is one of a fixed set of strings.
 *
 * @example
 * const op = oneOf(step, 'op', ['recordCall', 'canRetry'], where);
 */
export function oneOf<T extends string>(obj: Record<string, unknown>, key: string, options: readonly T[], where: string): T {
  const value = obj[key];
  if (typeof value !== 'string' || !(options as readonly string[]).includes(value)) {
    fail(where, `"${key}" must be one of ${options.map((o) => JSON.stringify(o)).join(', ')}`);
  }
  return value as T;
}

/**
 * A required array field.
 *
 * @example
 * const steps = list(input, 'steps', where);
 */
export function list(obj: Record<string, unknown>, key: string, where: string): unknown[] {
  const value = obj[key];
  if (!Array.isArray(value)) fail(where, `"${key}" must be an array`);
  return value;
}

/**
 * Refuses keys outside `allowed`, so that a misspelt field fails instead of being ignored.
 *
 * @example
 * onlyKeys(input, ['verdict', 'call', 'operation'], where);
 */
export function onlyKeys(obj: Record<string, unknown>, allowed: readonly string[], where: string): void {
  const extra = Object.keys(obj).filter((key) => !allowed.includes(key));
  if (extra.length > 0) fail(where, `unknown field(s) ${extra.map((k) => JSON.stringify(k)).join(', ')}`);
}
