import { isResilienceError, type ErrorInfo, type ResilienceError } from '@mcp-resilience/core';
import { cannotOpen } from './cannot-open.ts';

/**
 * `work`, ended early when `signal` aborts: the promise returned rejects at once with the
 * signal's reason, while `work` itself goes on for whoever else waits on it (a shared
 * re-initialization, say). Nothing is left listening once either settles.
 *
 * @example
 * await abortable(session.recover(ordinal), init.signal); // the caller gives up waiting; the recovery goes on
 */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * A wait's end, for the request waiting: its own abort as it is (`signal`'s reason), a
 * `ResilienceError` as the request's typed failure (`fail`, with the error's cause: the server's
 * answer, the hook's error), anything else as `REINITIALIZE_FAILED`.
 *
 * @example
 * await guarded(engine.backOff(action, verdict, method, status, signal), signal, (error, cause) => fail(error, cause));
 */
export async function guarded<T>(
  wait: Promise<T>, signal: AbortSignal | undefined, fail: (error: ErrorInfo, cause: unknown) => ResilienceError,
): Promise<T> {
  try {
    return await wait;
  } catch (error) {
    if (signal?.aborted && error === signal.reason) throw error;
    if (isResilienceError(error)) throw fail(error, error.cause ?? error); // its code, message and details
    throw fail(cannotOpen('failed', 'it failed'), error);
  }
}
