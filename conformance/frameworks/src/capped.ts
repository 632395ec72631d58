/** A wait that went past its cap: what a framework that never answers gets instead of a hang. */
export class CapError extends Error {
  readonly code = 'CAPPED';
}

/**
 * `work`, or a `CapError` once `ms` have passed (the timer is cleared either way).
 *
 * @example
 * await capped(client.close(), 5_000, 'close');
 */
export async function capped<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([work, new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new CapError(`no answer within ${ms / 1000} s (${what})`)), ms);
    })]);
  } finally {
    clearTimeout(timer);
  }
}
