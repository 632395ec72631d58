/**
 * Runs `work` with a signal that aborts after `ms` (a `TimeoutError`, as `AbortSignal.timeout`
 * would), and clears the timer as soon as `work` settles. Unlike `AbortSignal.timeout`, nothing
 * is left pending once the request is over: a client that recovers thousands of sessions does
 * not carry thousands of 20 s timers.
 *
 * @example
 * const response = await withDeadline(20_000, (signal) => fetch(url, { signal }));
 */
export async function withDeadline<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation timed out', 'TimeoutError')), ms);
  try {
    return await work(controller.signal);
  } finally {
    clearTimeout(timer);
  }
}
