import { clearTimeout, setTimeout } from 'node:timers';
import type { Sleep } from '@mcp-resilience/client';

/**
 * The engine's wait on Node: a timer that is `unref()`ed, so a pending backoff never keeps
 * the process alive, ending early (rejecting with the signal's reason) when `signal` aborts.
 * `createResilientFetch` and `connect` from `@mcp-resilience/node` use it unless given a `sleep`.
 *
 * @example
 * const controller = new AbortController();
 * await nodeSleep(1_000, controller.signal); // does not hold the process open
 */
export const nodeSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    timer.unref();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
