import type { DialectName, Fault, TaskBinding } from '@mcp-resilience/chaos/faults';
import type { ErrorCode, NormalizedEvent } from '@mcp-resilience/core';

/** The runtimes a scenario file may declare a difference for. */
export const RUNTIMES = ['node', 'deno', 'workerd', 'browser'] as const;
export type RuntimeName = (typeof RUNTIMES)[number];

/** The HTTP methods of Streamable HTTP, as `requestCounts` names them. */
export const HTTP_METHODS = ['POST', 'GET', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What a call must come to: answered (`ok`, or with this first text), or failed. */
export type CallExpectation = 'ok' | { readonly text: string } | { readonly error: ErrorCode | 'rejected' };

export interface ToolCall {
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** A call on the async path (`callLongTool`): the task lifetime it asks for, if any. */
export interface TaskCall extends ToolCall {
  readonly ttlMs?: number;
}

/** What runs while a task runs: faults and waits. */
export type DuringStep = Extract<Step, { readonly kind: 'faults' | 'sleep' }>;

export type Step =
  | { readonly kind: 'call'; readonly call: ToolCall; readonly expect: CallExpectation }
  | { readonly kind: 'concurrent'; readonly count: number; readonly call: ToolCall; readonly expect: CallExpectation }
  /** `callLongTool`: it must go as a task; `during` runs once the task is created, while it is polled. */
  | { readonly kind: 'task-call'; readonly call: TaskCall; readonly during: readonly DuringStep[]; readonly expect: CallExpectation }
  | { readonly kind: 'faults'; readonly faults: readonly Fault[] }
  | { readonly kind: 'sleep'; readonly ms: number }
  | { readonly kind: 'subscribe'; readonly uri: string }
  | { readonly kind: 'set-log-level'; readonly level: LogLevel }
  | { readonly kind: 'other-client' };

/** Engine options a JSON file can carry (functions — fetch, clock, jitter, onEvent — stay in code). */
export interface ScenarioClientOptions {
  readonly idleBudgetMs?: number;
  readonly serverIdleBudgetMs?: number;
  readonly retryAfterCapMs?: number;
  readonly replay?: 'safe' | 'always' | 'never';
  readonly tools?: { readonly readOnlyTools?: readonly string[]; readonly idempotentTools?: readonly string[]; readonly trustAnnotations?: boolean };
  readonly backoff?: { readonly initialMs?: number; readonly maxMs?: number; readonly factor?: number; readonly maxAttempts?: number; readonly maxTotalDelayMs?: number };
  readonly retryBudget?: false | { readonly ratio?: number; readonly minPerWindow?: number; readonly windowMs?: number };
}

/** The chaos server a scenario runs against: the options of a pool server (`POST {control}/servers`). */
export interface ScenarioChaosOptions {
  readonly mode?: 'legacy' | 'modern';
  readonly dialect?: DialectName;
  readonly faults?: readonly Fault[];
  readonly jsonResponses?: boolean;
  readonly exposeSessionId?: boolean;
  /** Whom the `job` tool's tasks belong to: `session` (default) or `server`. */
  readonly taskBinding?: TaskBinding;
}

/** The server's live sessions at the end, as `expect.sessions` names them. */
export interface SessionExpectation {
  readonly ordinal: number;
  readonly subscriptions: readonly string[];
  readonly logLevel?: string;
}

export interface ScenarioExpectation {
  readonly trace: readonly NormalizedEvent[];
  readonly ledger?: Readonly<Record<string, number>>;
  readonly posts?: readonly string[];
  readonly postCounts?: Readonly<Record<string, number>>;
  readonly requestCounts?: Readonly<Partial<Record<HttpMethod, number>>>;
  readonly sessions?: readonly SessionExpectation[];
}

/**
 * How a scenario comes out differently on some runtimes, and why. The script is the same
 * everywhere; only what comes out may differ: expectations replaced as a whole, field by
 * field (`expect`), and call expectations replaced by step index (`steps`).
 */
export interface DeclaredDifference {
  readonly runtimes: readonly RuntimeName[];
  /** What differs, in a sentence. */
  readonly what: string;
  /** Why that runtime cannot do otherwise. */
  readonly why: string;
  readonly expect?: Partial<ScenarioExpectation>;
  readonly steps?: Readonly<Record<number, CallExpectation>>;
}

export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly chaos: ScenarioChaosOptions;
  readonly connectAfterMs: number;
  readonly client: ScenarioClientOptions;
  readonly steps: readonly Step[];
  readonly expect: ScenarioExpectation;
  readonly differences: readonly DeclaredDifference[];
}
