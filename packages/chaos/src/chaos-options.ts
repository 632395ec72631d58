import type { ChaosClock } from './chaos-clock.ts';
import type { DialectName } from './dialect-responses.ts';
import type { Fault, ScheduledFault } from './faults.ts';
import type { ProtectedResource } from './protected-resource.ts';
import type { TaskBinding } from './task-binding.ts';

/**
 * How to start a chaos server.
 *
 * @example
 * const options: ChaosServerOptions = { dialect: 'amdahl', faults: [{ kind: 'idle-budget', ms: 30_000 }] };
 * const chaos = await startChaosServer(options);
 */
export interface ChaosServerOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0: any free port. */
  readonly port?: number;
  /** `legacy` (default): sessionful, 2025-03-26 … 2025-11-25. `modern`: 2026-07-28, stateless. */
  readonly mode?: 'legacy' | 'modern';
  /** Put the faults in front of this Streamable HTTP endpoint instead of the built-in server. */
  readonly upstream?: string;
  /** How "session gone" is said (default `typescript-sdk`, what the official server says). */
  readonly dialect?: DialectName;
  /** Expose `Mcp-Session-Id` to browsers through CORS (default true; false reproduces the common mistake). */
  readonly exposeSessionId?: boolean;
  /** Answer requests with JSON bodies instead of event streams (legacy mode; no progress, no resumption). */
  readonly jsonResponses?: boolean;
  /** Faults in force from the start. */
  readonly faults?: readonly Fault[];
  /** Faults applied at given times after the start. */
  readonly schedule?: readonly ScheduledFault[];
  /** Tasks belong to their `session` (default: lost with it, as the SDK's store does it) or to the `server` (lost on a restart only). */
  readonly taskBinding?: TaskBinding;
  /**
   * Origins (`http://127.0.0.1:5173`) given CORS on the control API, so a page served from
   * one may drive it; any other origin is refused (403). Default none. See the README for the risk.
   */
  readonly controlOrigins?: readonly string[];
  /**
   * What the server times with (uptime, idle budgets, the schedule, downtimes, the tools' work):
   * the wall clock by default; a test passes a `manualClock()` and moves time itself.
   */
  readonly clock?: ChaosClock;
  /**
   * Make `/mcp` a protected resource (bearer tokens, with its metadata and token endpoint on the
   * same origin): every request needs a token it issued and has not expired, checked before or
   * after the session lookup as its `order` says. Programmatic only (the churn check's credential scenarios).
   */
  readonly auth?: ProtectedResource;
}

