import { DEFAULT_RUNTIME, type AdapterRuntime } from '@mcp-resilience/client/adapter';
import { backgroundOn, budgetDeadline, notSentOnWorkers, type WaitUntilContext } from './workers-ports.ts';

/**
 * The time budget of one request's own engine work, by default: what `ctx.waitUntil` is given
 * after the response (30 s), so a re-initialization started late still fits.
 *
 * @example
 * createResilientFetch({ ctx, budgetMs: DEFAULT_BUDGET_MS - 5_000 });
 */
export const DEFAULT_BUDGET_MS = 30_000;

/** What a Worker's runtime facts depend on: the request being served. */
export interface WorkersRequest {
  /** The handler's `ctx`: background work goes to its `waitUntil`. */
  readonly ctx?: WaitUntilContext;
  /** The request's time budget for the engine's own requests, from now (default {@link DEFAULT_BUDGET_MS}). */
  readonly budgetMs?: number;
  /** The clock the budget is read by (default `Date.now`). */
  readonly now?: () => number;
}

/**
 * The Workers runtime's facts, the one object this adapter fills the engine's options from, for
 * one request (a Worker's I/O belongs to its request, so two of the facts do too): the engine's
 * own requests fit what is left of the request's budget, background work goes to `ctx.waitUntil`,
 * a failed connection ("Network connection lost.") counts as "maybe sent".
 *
 * @example
 * const fetch = engineFetch(withRuntimeDefaults({ sessionStore }, workersRuntime({ ctx, budgetMs: 25_000 })));
 */
export function workersRuntime(request: WorkersRequest = {}): AdapterRuntime {
  const now = request.now ?? DEFAULT_RUNTIME.now;
  return Object.freeze({
    ...DEFAULT_RUNTIME,
    deadline: budgetDeadline(now(), request.budgetMs ?? DEFAULT_BUDGET_MS, now),
    notSent: notSentOnWorkers,
    ...(request.ctx ? { background: backgroundOn(request.ctx) } : {}),
  });
}
