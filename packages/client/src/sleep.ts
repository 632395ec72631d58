/** Waits `ms`; how a runtime waits (timers that do not keep a process alive, say) is a port. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * Waits `ms` with the platform's timer, ending early (rejecting with the signal's reason)
 * when `signal` aborts.
 *
 * @example
 * await defaultSleep(200, init.signal);
 */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
