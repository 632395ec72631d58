/** The timer port: waits `ms`, or less when `signal` aborts (then its timer is cleared). */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * The default timer port, on `setTimeout`: an aborted wait clears its timer, so no timer
 * outlives what it guarded (Deno's sanitizers, a Node process that should exit).
 *
 * @example
 * await defaultSleep(50);
 */
export const defaultSleep: Sleep = (ms, signal) => new Promise<void>((resolve) => {
  if (signal?.aborted) return resolve();
  const done = () => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', done);
    resolve();
  };
  const timer = setTimeout(done, ms);
  signal?.addEventListener('abort', done, { once: true });
});

/** What `within` rejects with when the work is not done in time. */
export class HangError extends Error {
  readonly code = 'SCENARIO_HUNG';
  override name = 'HangError';
}

/**
 * `work`, or a {@link HangError} if it neither resolves nor rejects within `ms` (on the timer
 * port, whose wait is cancelled as soon as the work settles).
 *
 * @example
 * await within(client.callTool(params), 10_000, defaultSleep, 'tools/call echo');
 */
export async function within<T>(work: Promise<T>, ms: number, sleep: Sleep, what: string): Promise<T> {
  const settled = new AbortController();
  const timeout = sleep(ms, settled.signal).then(() => {
    if (!settled.signal.aborted) throw new HangError(`${what}: no answer and no failure within ${ms / 1000} s`);
    return undefined as never;
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    settled.abort();
  }
}
