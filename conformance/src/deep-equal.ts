/**
 * Structural equality with the rules of vitest's `toEqual` that matter for JSON vectors:
 * primitives by `Object.is`, arrays element by element, objects by their own keys, and a key
 * whose value is `undefined` counts as absent. Runtime-neutral, so every runtime's runner
 * reaches the same `ok`.
 *
 * @example
 * deepEqual({ kind: 'success', extra: undefined }, { kind: 'success' }) // true
 * deepEqual([1, 2], [2, 1])                                             // false
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) {
    if (!deepEqual(left[key], right[key])) return false;
  }
  return true;
}
