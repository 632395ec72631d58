import { DEFAULT_PORTS, type Deadline } from '@mcp-resilience/client/adapter';

/** What a Worker's handler is given to keep work going after its response: `ctx` of `fetch(request, env, ctx)`. */
export interface WaitUntilContext {
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * The engine's background port on Workers: `ctx.waitUntil`, so a store write or the DELETE of
 * a replaced session finishes after the response is sent. Failures stay the task's own.
 *
 * @example
 * createResilientFetch({ background: backgroundOn(ctx) });
 */
export function backgroundOn(ctx: WaitUntilContext): (task: Promise<unknown>) => void {
  return (task) => ctx.waitUntil(task.catch(() => {}));
}

/**
 * A deadline that respects the request's time budget: each of the engine's own requests is
 * bounded by the smaller of its own limit and what is left of `budgetMs` since `startedAt`
 * (both by `now`; on Workers the clock moves only with I/O, which is when it matters).
 *
 * @example
 * const deadline = budgetDeadline(Date.now(), 25_000);
 */
export function budgetDeadline(startedAt: number, budgetMs: number, now: () => number = Date.now): Deadline {
  return (ms, work) => DEFAULT_PORTS.deadline(Math.max(0, Math.min(ms, startedAt + budgetMs - now())), work);
}

/**
 * Whether a failed fetch provably sent nothing, as workerd says it: it cannot tell. A refused
 * connection and a broken one both read `Network connection lost.`, so the honest answer is
 * "maybe sent" (the engine's default): such a call is repeated only if replay is safe for it.
 */
export const notSentOnWorkers = (_error: unknown): boolean => false;
