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
