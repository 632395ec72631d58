import type { Fault } from '../faults.ts';
import type { DialectName } from '../dialect-responses.ts';
import type { AuthOrder } from '../protected-resource.ts';

/** The tools of the workload: `echo` is read-only, `record` is not idempotent, `slow` keeps a response stream open. */
export type WorkloadTool = 'echo' | 'record' | 'slow';

/** What a call must come to, as the application sees it: answered, failed, or either (but not by a hang). */
export type CallExpectation = 'ok' | 'fail' | 'settled';

/** One call of the workload: the client makes it and prints its outcome under `id`. */
export interface WorkloadCall {
  readonly id: string;
  readonly tool: WorkloadTool;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly expect: CallExpectation;
}

/**
 * Faults the check applies when the first call of a step reaches the server, before the server
 * reads it: a list, a function of the time (an HTTP-date `Retry-After`), `expire-idle` (the
 * server's idle budget catches the session the client left idle during the step's pause), or
 * `expire-session-and-token` (what a long pause does to a protected server: every session evicted
 * and every access token issued so far expired, together).
 */
export type FaultAction = readonly Fault[] | ((now: Date) => readonly Fault[]) | 'expire-idle' | 'expire-session-and-token';

/** A group of calls the client makes at once, after the previous group has settled. */
export interface ScenarioStep {
  /** The client waits this long before the step (idle time). */
  readonly pauseMs?: number;
  readonly calls: readonly WorkloadCall[];
  /** Applied as the step's first call arrives, before the server handles it. */
  readonly before?: FaultAction;
  /** Applied `afterMs` after the step's first call arrived (a fault while a call is in flight). */
  readonly during?: { readonly afterMs: number; readonly faults: readonly Fault[] };
  /**
   * The answer to the step's first call is held until this time, computed from the same `now` as
   * `before`: a `Retry-After` date then lies a fixed margin ahead of the answer, wherever in the
   * wall-clock second the call arrived.
   */
  readonly answerAt?: (now: Date) => Date;
}

/** The named checks a scenario can score (see `checks.ts`). */
export const CHECK_NAMES = [
  'reinitialized', 'continued-in-new-session', 'replayed-once', 'dead-id-dropped', 'one-initialize', 'waited-retry-after',
  'retry-after-capped', 'no-4xx-retry', 'ran-once', 'resumed', 'stateless-2026', 'session-kept', 'calls-answered', 'no-hang', 'token-refreshed',
] as const;

/**
 * One check's name.
 *
 * @example
 * const name: CheckName = 'reinitialized';
 */
export type CheckName = (typeof CHECK_NAMES)[number];

/** One scenario of the churn check: a chaos server, the workload's calls, the faults, and what is scored. */
export interface ChurnScenario {
  readonly name: string;
  /** What happens, in one sentence. */
  readonly title: string;
  /** The revision the client is asked to speak (2026-07-28: a client that cannot may skip the scenario). */
  readonly revision: '2025-11-25' | '2026-07-28';
  readonly chaos: { readonly mode?: 'legacy' | 'modern'; readonly dialect?: DialectName; readonly faults?: readonly Fault[] };
  /**
   * The server is a protected resource (bearer tokens it issues; a client that cannot authenticate
   * may skip the scenario), reporting a dead token before or after a dead session as this says.
   */
  readonly auth?: AuthOrder;
  readonly steps: readonly ScenarioStep[];
  readonly checks: readonly CheckName[];
}

/**
 * How the client of a protected server gets and renews its access token (an OAuth token endpoint
 * on the chaos server's origin, RFC 6749): it starts with `accessToken`, and when a request is
 * answered 401 it POSTs `grant_type=refresh_token&refresh_token=…` (or `grant_type=client_credentials`)
 * to `tokenEndpoint`, authenticated as `clientId`/`clientSecret` (HTTP Basic or in the form), and
 * goes on with the `access_token` it gets. The server's metadata is at the usual places too
 * (`/.well-known/oauth-protected-resource/mcp`, `/.well-known/oauth-authorization-server`), so an
 * SDK's OAuth provider can find the endpoint itself.
 */
export interface WorkloadAuth {
  readonly tokenEndpoint: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly accessToken: string;
  readonly refreshToken: string;
}

/**
 * What the client is given in `MCP_CHURN_CONTEXT` (JSON): the revision, the per-call timeout it
 * must apply, and the steps of calls.
 *
 * @example
 * const context: WorkloadContext = JSON.parse(process.env.MCP_CHURN_CONTEXT!);
 */
export interface WorkloadContext {
  readonly scenario: string;
  /** Present when the server is protected: how to get and renew a token (a client that cannot may skip the scenario). */
  readonly auth?: WorkloadAuth;
  readonly revision: ChurnScenario['revision'];
  readonly callTimeoutMs: number;
  readonly steps: readonly { readonly pauseMs?: number; readonly calls: readonly { readonly id: string; readonly tool: WorkloadTool; readonly arguments: Readonly<Record<string, unknown>> }[] }[];
}

/**
 * Whether a client may skip the scenario (`{"skip": why}`): one of revision 2026-07-28, or of a
 * protected server. Every other scenario must be run.
 *
 * @example
 * skippable(SCENARIOS[0]); // false
 */
export function skippable(scenario: ChurnScenario): boolean {
  return scenario.revision === '2026-07-28' || scenario.auth !== undefined;
}

/** The environment variable naming the scenario (as the official conformance runner's `MCP_CONFORMANCE_SCENARIO`). */
export const SCENARIO_ENV = 'MCP_CHURN_SCENARIO';
/** The environment variable holding the {@link WorkloadContext} as JSON (as `MCP_CONFORMANCE_CONTEXT`). */
export const CONTEXT_ENV = 'MCP_CHURN_CONTEXT';

/**
 * The context a client is given for a scenario (with `auth` for a protected server's).
 *
 * @example
 * workloadContext(scenario, 4000).steps[0].calls[0]; // { id: 'c1', tool: 'echo', arguments: { text: 'c1' } }
 */
export function workloadContext(scenario: ChurnScenario, callTimeoutMs: number, auth?: WorkloadAuth): WorkloadContext {
  return {
    scenario: scenario.name, revision: scenario.revision, callTimeoutMs, ...(auth ? { auth } : {}),
    steps: scenario.steps.map((step) => ({
      ...(step.pauseMs === undefined ? {} : { pauseMs: step.pauseMs }),
      calls: step.calls.map(({ id, tool, arguments: args }) => ({ id, tool, arguments: args })),
    })),
  };
}

/**
 * A call's identity on the wire: its tool and its arguments, keys sorted (each call of a scenario has its own).
 *
 * @example
 * callKey('echo', { text: 'c1' }); // 'echo {"text":"c1"}'
 */
export function callKey(tool: unknown, args: unknown): string {
  const sorted = (value: unknown): unknown => (typeof value === 'object' && value !== null && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, sorted(v)]))
    : value);
  return `${String(tool)} ${JSON.stringify(sorted(args ?? {}))}`;
}
