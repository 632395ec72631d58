/**
 * Small checks and clamps for values that come from outside (JSON bodies, options, headers),
 * shared by the modules. Internal: not part of the public API.
 *
 * @module
 */

/** A plain object: not `null`, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A finite number `>= 0` (not `NaN`, not `Infinity`, not a non-number). */
export function isNonNegative(value: unknown): value is number {
  return Number.isFinite(value) && (value as number) >= 0;
}

/** An integer `>= 0` (not a non-number). */
export function isCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}

/** `value` brought into [min, max]; `NaN` stays `NaN`. */
export function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
