import { defined, type Blocked, type ResilienceEvent } from '@mcp-resilience/core';
import type { SessionStore } from './session-store.ts';

/**
 * Waits `ms`, ending early (rejecting with the signal's reason) when `signal` aborts.
 *
 * @example
 * const sleep: Sleep = (ms, signal) => clock.advanceBy(ms, signal); // a test's own clock
 */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * Runs `work` with a signal that aborts (with a `TimeoutError`) after `ms`, and clears its timer
 * as soon as `work` settles: nothing of a request that ended is left pending.
 *
 * @example
 * const answer = await deadline(20_000, (signal) => fetch(url, { method: 'DELETE', signal }));
 */
export type Deadline = <T>(ms: number, work: (signal: AbortSignal) => Promise<T>) => Promise<T>;

/**
 * Everything the engine asks of its runtime, each with a default that works anywhere
 * ({@link DEFAULT_PORTS}). An adapter fills them with the runtime's own (timers that do not hold
 * a process open, `ctx.waitUntil`, a Durable Object store, …) and adds nothing else.
 *
 * @example
 * const ports: EnginePorts = { ...DEFAULT_PORTS, sleep: nodeSleep, notSent: refusedBeforeSending };
 */
export interface EnginePorts {
  /** The clock, in ms. */
  readonly now: () => number;
  /** A random number in [0, 1), for jitter. */
  readonly random: () => number;
  readonly sleep: Sleep;
  /** How the engine bounds its own requests (a re-initialization, a restore, a DELETE). */
  readonly deadline: Deadline;
  /**
   * Whether a failed fetch provably sent nothing (a refused connection), given the error the
   * engine's `fetch` rejected with. Only the runtime knows how its fetch says so; the default
   * answers `false`: "maybe sent", the honest answer. A {@link Blocked} says nothing was sent and
   * a retry cannot help (Deno lacks a permission).
   *
   * Only what was known before the request could leave is proof: a state read when the port is
   * asked, after the failure (offline now), is not, since the request may have gone out before it
   * changed. A runtime that needs such a state reads it in its `fetch` before sending and marks
   * the error it rejects with (the browser's `browserFetch` and `offlineNotSent` do).
   */
  readonly notSent: (error: unknown) => boolean | Blocked;
  /**
   * Whether the runtime hides the response headers a server at `url` did not expose (a browser
   * reading a cross-origin answer under CORS). The default answers `false`: nothing hidden.
   */
  readonly headersHidden: (url: string) => boolean;
  /** Where sessions outlive one engine; none by default. */
  readonly sessionStore?: SessionStore;
  /**
   * Takes work that must finish after the call that started it has been answered (store writes,
   * the DELETE of a replaced session): `ctx.waitUntil` on Workers. Its failures are its own.
   */
  readonly background: (task: Promise<unknown>) => void;
  /** Told of every decision the engine carries out. */
  readonly onEvent: (event: ResilienceEvent) => void;
}

/**
 * The runtime's side of the engine's options: the {@link EnginePorts} and the `fetch` that goes
 * to the network. An adapter fills them from its runtime's one object of facts; an application
 * sets one only to take it over (a clock in a test, a store of its own).
 *
 * @example
 * const ports: RuntimePorts = { fetch: (input, init) => globalThis.fetch(input, init), sleep: nodeSleep, sessionStore: new MemorySessionStore() };
 * const fetch = createResilientFetch({ ...ports, replay: 'safe' });
 */
export interface RuntimePorts extends Partial<EnginePorts> {
  /** The fetch that goes to the network (default: the global `fetch`); the engine sends every request through it. */
  readonly fetch?: typeof fetch;
}

/**
 * The {@link Sleep} of a runtime whose timers are set with `setTimer` and cleared with
 * `clearTimer` (Node and Deno pass ones that do not hold the process open).
 *
 * @example
 * const sleep = sleepWith((run, ms) => setTimeout(run, ms), clearTimeout);
 * await sleep(200, init.signal);
 */
export function sleepWith<H>(setTimer: (run: () => void, ms: number) => H, clearTimer: (handle: H) => void): Sleep {
  return (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimer(timer);
        reject(signal?.reason);
      };
      const timer = setTimer(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
}

/**
 * Waits `ms` with the platform's timer (see {@link Sleep}).
 *
 * @example
 * await defaultSleep(200, init.signal);
 */
export const defaultSleep: Sleep = sleepWith((run, ms) => setTimeout(run, ms), (timer) => clearTimeout(timer));

/**
 * The {@link Deadline} of a runtime whose timers are set with `setTimer` and cleared with
 * `clearTimer` (Node passes unref'd ones).
 *
 * @example
 * const deadline = deadlineWith((run, ms) => setTimeout(run, ms), clearTimeout);
 * const response = await deadline(20_000, (signal) => fetch(url, { signal }));
 */
export function deadlineWith<H>(setTimer: (run: () => void, ms: number) => H, clearTimer: (handle: H) => void): Deadline {
  return async (ms, work) => {
    const controller = new AbortController();
    const timer = setTimer(() => controller.abort(new DOMException('The operation timed out', 'TimeoutError')), ms);
    try {
      return await work(controller.signal);
    } finally {
      clearTimer(timer);
    }
  };
}

/**
 * The ports every runtime can use: `Date.now`, `Math.random`, the global timers, "maybe sent",
 * no headers hidden, no session store, background work left to run on its own, no event sink.
 *
 * @example
 * const now = DEFAULT_PORTS.now(); // Date.now()
 */
export const DEFAULT_PORTS: EnginePorts = Object.freeze({
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: defaultSleep,
  deadline: deadlineWith((run, ms) => setTimeout(run, ms), (timer) => clearTimeout(timer)),
  notSent: () => false,
  headersHidden: () => false,
  background: (task: Promise<unknown>) => void task.catch(() => {}),
  onEvent: () => {},
});

/**
 * The ports an engine runs with: those given, the defaults for the rest.
 *
 * @example
 * const ports = resolvePorts({ sleep: nodeSleep });
 */
export function resolvePorts(given: { readonly [P in keyof EnginePorts]?: EnginePorts[P] | undefined }): EnginePorts {
  return { ...DEFAULT_PORTS, ...defined(given) } as EnginePorts;
}
