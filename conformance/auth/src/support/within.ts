/**
 * `promise`, or a rejection saying it hung once `ms` have passed: a cap on a wait, never a verdict
 * on speed (the cap is far above what the awaited work takes).
 *
 * @example
 * const text = await within(client.echo('hi'), 10_000, 'echo');
 */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} hung: not settled within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, cap]);
  } finally {
    clearTimeout(timer);
  }
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
