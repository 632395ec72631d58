import type { Sleep } from '../ports.ts';

/**
 * The engine's clock and sleep ports on a clock the test owns: a sleep moves the clock on by
 * its `ms` at once and resolves on the next turn of the event loop (no real time passes). With
 * `holdAfter: n`, sleep number n + 1 is held until its signal aborts (`held` resolves then).
 *
 * @example
 * const clock = virtualClock();
 * createResilientFetch({ now: clock.now, sleep: clock.sleep });
 */
export function virtualClock(options: { readonly holdAfter?: number } = {}) {
  let nowMs = 0;
  const slept: number[] = [];
  let markHeld = () => {};
  const held = new Promise<void>((resolve) => (markHeld = resolve));
  const sleep: Sleep = (ms, signal) => new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    if (options.holdAfter !== undefined && slept.length >= options.holdAfter) {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      return markHeld();
    }
    slept.push(ms);
    nowMs += ms;
    setImmediate(resolve);
  });
  return {
    now: () => nowMs,
    sleep,
    /** Every delay slept, in order. */
    slept,
    held,
    get nowMs() {
      return nowMs;
    },
  };
}
