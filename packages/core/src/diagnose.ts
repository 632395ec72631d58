import { defined } from './defined.ts';
import { isNonNegative } from './values.ts';

/**
 * Why a session ended:
 * - `server-restarted`: the server is younger than the session (a deploy or restart).
 * - `idle-expired`: the session had been idle past the server's idle budget.
 * - `evicted-while-idle`: dropped while idle but within the budget (capacity pressure).
 * - `evicted-while-busy`: dropped while in use: a suspected server bug, worth reporting.
 * - `unknown`: no usable uptime, or too close to call.
 *
 * @example
 * const cause: LossCause = diagnoseLoss(facts).cause; // 'server-restarted', 'idle-expired', …
 */
export type LossCause = 'server-restarted' | 'idle-expired' | 'evicted-while-idle' | 'evicted-while-busy' | 'unknown';

/**
 * What {@link diagnoseLoss} reads: times on one clock, and what the server said of itself.
 *
 * @example
 * const facts: LossFacts = { sessionStartedAtMs: 0, lastActivityAtMs: 50_000, failedAtMs: 60_000, serverUptimeSeconds: 12 };
 * diagnoseLoss(facts).cause // 'server-restarted'
 */
export interface LossFacts {
  readonly sessionStartedAtMs: number;
  /** The end of the last exchange before the failing one. */
  readonly lastActivityAtMs: number;
  readonly failedAtMs: number;
  readonly serverUptimeSeconds?: number;
  /** The server's idle budget, when known (the seed contract's is two hours). */
  readonly idleBudgetMs?: number;
  /** Idle for less than this counts as in use (default 60 s). */
  readonly busyWindowMs?: number;
  /** A standalone GET stream was open: the seed contract counts that as use. */
  readonly streamOpen?: boolean;
}

/** The cause with the figures behind it, as the session-lost event reports them. */
export interface Diagnosis {
  readonly cause: LossCause;
  readonly suspectedServerBug: boolean;
  readonly sessionAgeMs: number;
  readonly idleMs: number;
  readonly serverUptimeSeconds?: number;
}

/**
 * Idle for less than this (60 s) counts as busy. A session dropped that recently after an
 * exchange was in use: no idle budget explains it, so the loss is a suspected server bug.
 */
export const DEFAULT_BUSY_WINDOW_MS = 60_000;
/** A century: an uptime beyond it is garbage, not a figure to reason from. */
const MAX_PLAUSIBLE_UPTIME_SECONDS = 100 * 365.25 * 86_400;
/** Uptime comes in whole seconds, floored or rounded: closer than this is too close to call. */
const UPTIME_GRANULARITY_MS = 1_000;

/**
 * Names the cause of a session loss from the server's uptime and the session's own history.
 * If the server is younger than the session, it restarted: exact up to the one-second grain of
 * `server_uptime_seconds`, inside which the answer is `unknown`. Otherwise an open stream or
 * a recent exchange means the session was busy (a suspected bug); an idle time past the
 * budget means idle expiry; an idle session short of a known budget was evicted for capacity.
 *
 * @example
 * diagnoseLoss({ sessionStartedAtMs: 0, lastActivityAtMs: 50_000, failedAtMs: 60_000, serverUptimeSeconds: 47 })
 * // { cause: 'server-restarted', suspectedServerBug: false, sessionAgeMs: 60000, idleMs: 10000, serverUptimeSeconds: 47 }
 */
export function diagnoseLoss(facts: LossFacts): Diagnosis {
  const sessionAgeMs = Math.max(0, facts.failedAtMs - facts.sessionStartedAtMs);
  const idleMs = Math.max(0, facts.failedAtMs - facts.lastActivityAtMs);
  const uptime = facts.serverUptimeSeconds;
  const figures = defined({ sessionAgeMs, idleMs, serverUptimeSeconds: uptime });
  const result = (cause: LossCause): Diagnosis => ({ cause, suspectedServerBug: cause === 'evicted-while-busy', ...figures });

  if (!isNonNegative(uptime) || uptime > MAX_PLAUSIBLE_UPTIME_SECONDS) return result('unknown');
  const uptimeMs = uptime * 1000;
  if (uptimeMs + UPTIME_GRANULARITY_MS <= sessionAgeMs) return result('server-restarted');
  if (uptimeMs - UPTIME_GRANULARITY_MS < sessionAgeMs) return result('unknown');
  // An open stream is use: a session holding one was never idle, whatever the clock says.
  if (facts.streamOpen === true) return result('evicted-while-busy');
  const budget = facts.idleBudgetMs;
  if (budget !== undefined && idleMs >= budget) return result('idle-expired');
  if (idleMs < (facts.busyWindowMs ?? DEFAULT_BUSY_WINDOW_MS)) return result('evicted-while-busy');
  // Idle, but short of a known budget: capacity pressure. With no budget known, the
  // contract's reading of an idle client's loss is the idle budget.
  return result(budget === undefined ? 'idle-expired' : 'evicted-while-idle');
}
