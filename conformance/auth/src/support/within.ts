import { defaultSleep, within as withinOn } from '@mcp-resilience/scenarios';

/**
 * `promise`, or a rejection saying it hung once `ms` have passed: the scenarios' `within` on the
 * timer, a cap on a wait, never a verdict on speed (the cap is far above what the work takes).
 *
 * @example
 * const text = await within(client.echo('hi'), 10_000, 'echo');
 */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return withinOn(promise, ms, defaultSleep, what);
}

/**
 * How `promise` settled, within a cap: `{ ok: true, value }` or `{ ok: false, error }`.
 *
 * @example
 * const outcome = await settle(client.echo('hi'), 10_000, 'echo'); // { ok: false, error: UnauthorizedError }
 */
export async function settle<T>(promise: Promise<T>, ms: number, what: string): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await within(promise, ms, what) };
  } catch (error) {
    return { ok: false, error };
  }
}
