import type { ResilienceEvent } from '@mcp-resilience/core';
import type { ChaosControl } from './chaos-control.ts';
import type { Sleep } from './deadline.ts';
import type { LogLevel, RuntimeName, ScenarioClientOptions } from './scenario.ts';

/** The engine's options as a scenario fills them in: the file's `client`, and where the events go. */
export type ScenarioFetchOptions = ScenarioClientOptions & { readonly onEvent: (event: ResilienceEvent) => void };

/** Per-request options the runner passes the SDK: a call that neither answers nor fails by `timeout` is a hang. */
export interface ScenarioRequestOptions {
  readonly timeout?: number;
  /** Told of each `notifications/progress` of the request (the SDK then sends a progress token). */
  readonly onprogress?: (progress: unknown) => void;
}

/** What the runner uses of an official SDK `Client` (1.x `@modelcontextprotocol/sdk` or 2.x `@modelcontextprotocol/client`). */
export interface ScenarioClient {
  onerror?: ((error: Error) => void) | undefined;
  connect(transport: unknown, options?: ScenarioRequestOptions): Promise<void>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> }, resultSchema?: undefined, options?: ScenarioRequestOptions,
  ): Promise<unknown>;
  subscribeResource(params: { uri: string }, options?: ScenarioRequestOptions): Promise<unknown>;
  setLoggingLevel(level: LogLevel, options?: ScenarioRequestOptions): Promise<unknown>;
  close(): Promise<void>;
}

/** What the runner passes the runtime's `callLongTool` (`@mcp-resilience/client`'s, through its adapter). */
export interface ScenarioLongToolOptions {
  readonly timeout: number;
  readonly ttlMs?: number;
  /** Told of each status of the task: the first call says it was created. */
  readonly onTask: (task: unknown) => void;
}

/** The SDK's classes, as a runtime imports them. */
export interface ScenarioSdk {
  readonly Client: new (info: { name: string; version: string }, options?: never) => ScenarioClient;
  readonly StreamableHTTPClientTransport: new (url: URL, options?: { fetch?: typeof fetch }) => unknown;
  /**
   * The second argument of every `new Client(…)`: what the runtime needs there (on Workers,
   * `{ jsonSchemaValidator: new CfWorkerJsonSchemaValidator() }`). Default none.
   */
  readonly clientOptions?: unknown;
}

/**
 * What a runtime gives the runner. Everything that touches the runtime is here: the runner
 * itself uses `fetch` only through these, and `setTimeout` only when `sleep` is not given.
 *
 * @example
 * import { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
 * import { createResilientFetch } from '@mcp-resilience/node';
 * const host: ScenarioHost = {
 *   runtime: 'node', createFetch: createResilientFetch,
 *   sdk: { Client, StreamableHTTPClientTransport }, chaos: chaosPool(control),
 * };
 */
export interface ScenarioHost {
  /** The runtime the scenarios run in: it picks the scenario files' declared differences. */
  readonly runtime: RuntimeName;
  /** Makes the resilient fetch under test: the runtime adapter's `createResilientFetch`. */
  readonly createFetch: (options: ScenarioFetchOptions) => typeof fetch;
  readonly sdk: ScenarioSdk;
  /** Fresh chaos servers per scenario, over HTTP ({@link chaosPool}). */
  readonly chaos: ChaosControl;
  /**
   * The adapter's `callLongTool`, for `taskCall` steps. Its first parameter is the SDK client
   * the runner made (typed `never` here so that the adapter's own client type fits).
   */
  readonly callLongTool: (
    client: never, params: { name: string; arguments: Record<string, unknown> }, options: ScenarioLongToolOptions,
  ) => Promise<unknown>;
  /**
   * The timer port: every wait of the runner (`sleepMs`, `connectAfterMs`, polling the server,
   * the deadline of each call). A wait whose `signal` aborts should end and clear its timer.
   * Default {@link defaultSleep}, on `setTimeout`.
   */
  readonly sleep?: Sleep;
}
