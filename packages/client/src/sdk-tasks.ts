import { defined } from '@mcp-resilience/core';

/** A tool call's result as both SDK lines give it (`CallToolResult`, loosely). */
export interface ToolResult {
  readonly content?: readonly unknown[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly [key: string]: unknown;
}

/** A tool call's parameters. */
export interface ToolCallParams {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
  readonly _meta?: Record<string, unknown>;
}

/** The options of each request: passed to the SDK as its `RequestOptions`. */
export interface SdkRequestOptions {
  readonly signal?: AbortSignal;
  readonly timeout?: number;
  readonly onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
}

/**
 * What {@link callLongTool} uses of an official SDK `Client`: the 1.x line (`@modelcontextprotocol/sdk`,
 * whose task API is `client.experimental.tasks`) or the 2.x line (`@modelcontextprotocol/client`,
 * whose task interop is `request()` with an explicit result schema).
 */
export interface TaskClient {
  // Method syntax: each line's own signatures (generic schemas, its options) fit these.
  request(request: { method: string; params?: Record<string, unknown> }, schema: unknown, options?: unknown): Promise<unknown>;
  callTool(params: ToolCallParams, more?: unknown, options?: unknown): Promise<unknown>;
  listTools(params?: { cursor?: string }, options?: unknown): Promise<{ tools: readonly unknown[]; nextCursor?: string | undefined }>;
  getServerCapabilities(): unknown;
}

interface V1Tasks {
  getTask(taskId: string, options?: SdkRequestOptions): Promise<unknown>;
  getTaskResult(taskId: string, schema: unknown, options?: SdkRequestOptions): Promise<unknown>;
  cancelTask(taskId: string, options?: SdkRequestOptions): Promise<unknown>;
}

/**
 * A result schema both lines take and that takes anything: the answers are checked where they
 * are read (`readTask`). 1.x parses with `safeParse` (the zod 3 face), 2.x with Standard Schema.
 */
const ANY_RESULT = {
  safeParse: (data: unknown) => ({ success: true, data }),
  '~standard': { version: 1, vendor: 'mcp-resilience', validate: (value: unknown) => ({ value }) },
};

/** The task requests of one SDK client, whichever its line. */
export interface SdkTasks {
  readonly revision: string | undefined;
  callTool(params: ToolCallParams, options: SdkRequestOptions): Promise<ToolResult>;
  /** A task-augmented `tools/call`: its answer (a `CreateTaskResult`, if the server made a task). */
  create(params: ToolCallParams, ttlMs: number | undefined, options: SdkRequestOptions): Promise<unknown>;
  get(taskId: string, options: SdkRequestOptions): Promise<unknown>;
  result(taskId: string, options: SdkRequestOptions): Promise<ToolResult>;
  cancel(taskId: string, options: SdkRequestOptions): Promise<unknown>;
}

/**
 * The task requests of `client` on its SDK line: 1.x through `client.experimental.tasks` (and
 * `RequestOptions.task`, which also keeps the call's progress coming while the task runs); 2.x
 * through `request()` with an explicit result schema, as its migration guide prescribes for
 * 2025-11-25 task interop.
 *
 * @example
 * const sdk = sdkTasks(client);
 * const created = await sdk.create({ name: 'report', arguments: {} }, 60_000, {});
 */
export function sdkTasks(client: TaskClient): SdkTasks {
  const v1 = (client as { experimental?: { tasks?: V1Tasks } }).experimental?.tasks;
  const v2Revision = (client as { getNegotiatedProtocolVersion?: () => string | undefined }).getNegotiatedProtocolVersion;
  const request = (method: string, params: Record<string, unknown>, options: SdkRequestOptions) =>
    client.request({ method, params }, ANY_RESULT, options);
  const callTool = client.callTool.bind(client) as (params: ToolCallParams, more?: unknown, options?: unknown) => Promise<ToolResult>;
  if (v1) {
    return {
      revision: (client as { transport?: { protocolVersion?: string } }).transport?.protocolVersion,
      callTool: (params, options) => callTool(params, undefined, options),
      create: (params, ttl, options) => request('tools/call', { ...params }, { ...options, task: defined({ ttl }) } as SdkRequestOptions),
      get: (taskId, options) => v1.getTask(taskId, options),
      result: (taskId, options) => v1.getTaskResult(taskId, ANY_RESULT, options) as Promise<ToolResult>,
      cancel: (taskId, options) => v1.cancelTask(taskId, options),
    };
  }
  return {
    revision: v2Revision?.call(client),
    callTool: (params, options) => callTool(params, options),
    create: (params, ttl, options) => request('tools/call', { ...params, task: defined({ ttl }) }, options),
    get: (taskId, options) => request('tasks/get', { taskId }, options),
    result: (taskId, options) => request('tasks/result', { taskId }, options) as Promise<ToolResult>,
    cancel: (taskId, options) => request('tasks/cancel', { taskId }, options),
  };
}
