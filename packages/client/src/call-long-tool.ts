import {
  DEFAULT_TASK_POLL, defined, isResilienceError, isUnknownTask, nextTaskStep, readTask, ResilienceError, resilienceCodeOf, taskLost, taskMode,
  type TaskFacts, type TaskPollPolicy,
} from '@mcp-resilience/core';
import { IDEMPOTENCY_KEY } from './options.ts';
import { defaultSleep } from './ports.ts';
import { sdkTasks, type SdkRequestOptions, type SdkTasks, type TaskClient, type ToolCallParams, type ToolResult } from './sdk-tasks.ts';
import { taskSupportOf } from './tool-task-support.ts';

export type { TaskClient, ToolCallParams, ToolResult } from './sdk-tasks.ts';

/** Options of {@link callLongTool}. */
export interface LongToolOptions extends SdkRequestOptions {
  /** Called with each status of the task: when it is created, and after each poll (its `statusMessage` tells progress too). */
  readonly onTask?: (task: TaskFacts) => void;
  /** The task lifetime asked for, in ms (the server may shorten it); polling never runs past the TTL it grants. */
  readonly ttlMs?: number;
  /** How long to poll: `defaultIntervalMs` (1 s), `minIntervalMs` (50 ms), `maxWaitMs` (1 hour). */
  readonly poll?: Partial<TaskPollPolicy>;
  /** The tool's `execution.taskSupport`, when the caller knows it: no `tools/list` is sent to learn it. */
  readonly taskSupport?: 'optional' | 'required' | 'forbidden';
  /** On abort, cancel the task on the server (`tasks/cancel`, best effort); default true. */
  readonly cancelOnAbort?: boolean;
}

/** The bound on the `tasks/cancel` sent after an abort. */
const CANCEL_TIMEOUT_MS = 5_000;

/** A failure as the application gets it: a typed failure the engine wrote into an SDK error becomes a `ResilienceError`. */
function typed(error: unknown): unknown {
  const code = resilienceCodeOf(error);
  if (code === undefined || isResilienceError(error)) return error;
  const { code: _, ...details } = ((error as { data?: Record<string, unknown> }).data ?? {});
  return new ResilienceError({ code, message: (error as Error).message, details }, { cause: error });
}

/**
 * Calls a tool that may run long, the way the seed's advice says: rather than holding a request
 * open (and raising its timeout), start it and poll. When the connection has tasks (2025-11-25,
 * the server's `tasks.requests.tools.call`) and the tool supports them (`execution.taskSupport`
 * `optional` or `required`, from `tools/list` unless given), the call goes as a task: created at
 * once, polled with `tasks/get` as the server's `pollInterval` asks, never past the task's TTL or
 * `poll.maxWaitMs`, its result fetched with `tasks/result`. Otherwise it is a plain `tools/call`.
 * Either way the tool's result comes back (a tool error as `isError`, as a plain call gives it).
 *
 * Through the engine a task survives a session loss: polling goes on on the new session with
 * the same task id. Where the server no longer knows the task, the call fails with `TASK_LOST`
 * (the task id, the cause, whether it may still run), and is started anew, once, only when its
 * creation was safe to send again (a tool the engine's `tools` vouch for, or consent: an
 * `IDEMPOTENCY_KEY` in `_meta`). Abort ends the wait at once and cancels the task. Typed failures
 * are `ResilienceError`s: `TASK_LOST`, `TASK_UNFINISHED` (polling stopped, the task may finish:
 * its id is in the details), `TASK_CANCELLED`, and the engine's own.
 *
 * @example
 * const result = await callLongTool(client, { name: 'build-report', arguments: { year: 2025 } }, {
 *   signal: AbortSignal.timeout(15 * 60_000), onTask: (task) => console.log(task.status, task.statusMessage),
 * });
 */
export async function callLongTool(client: TaskClient, params: ToolCallParams, options: LongToolOptions = {}): Promise<ToolResult> {
  const sdk = sdkTasks(client);
  const { signal, timeout, onprogress } = options;
  const requestOptions = defined({ signal, timeout });
  try {
    const taskSupport = options.taskSupport ?? (await taskSupportOf(client, params.name, requestOptions));
    if (taskMode(defined({ revision: sdk.revision, capabilities: client.getServerCapabilities(), taskSupport })) === 'plain') {
      return await sdk.callTool(params, defined({ ...requestOptions, onprogress }));
    }
    try {
      return await runTask(sdk, params, options, requestOptions);
    } catch (error) {
      // Started anew once, and only when its creation was safe to send again: never twice, never silently otherwise.
      const failure = typed(error);
      if (!isResilienceError(failure, 'TASK_LOST') || failure.details.recreatable !== true) throw error;
      return await runTask(sdk, params, options, requestOptions);
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw typed(error);
  }
}

async function runTask(sdk: SdkTasks, params: ToolCallParams, options: LongToolOptions, requestOptions: SdkRequestOptions): Promise<ToolResult> {
  const policy = { ...DEFAULT_TASK_POLL, ...options.poll };
  const createdAtMs = Date.now();
  const onprogress = options.onprogress;
  const created = await sdk.create(params, options.ttlMs, defined({ ...requestOptions, onprogress }));
  let task = readTask(created);
  // A server that made no task answered the call itself (2025-11-25: the task field is ignored where tasks are not offered).
  if (!task) return created as ToolResult;
  const startedAtMs = Date.now();
  try {
    for (;;) {
      options.onTask?.(task);
      const step = nextTaskStep({ task, nowMs: Date.now(), startedAtMs, createdAtMs, policy });
      if (step.type === 'fetch-result') return await sdk.result(task.taskId, requestOptions);
      if (step.type === 'give-up') throw new ResilienceError(step.error);
      await defaultSleep(step.delayMs, options.signal);
      task = await poll(sdk, task, requestOptions, params);
    }
  } catch (error) {
    if (options.signal?.aborted && options.cancelOnAbort !== false && task.status !== 'completed' && task.status !== 'failed') {
      await sdk.cancel(task.taskId, { timeout: CANCEL_TIMEOUT_MS }).catch(() => {});
    }
    throw error;
  }
}

/** One `tasks/get`: the task, or `TASK_LOST` when the server says it does not know it. */
async function poll(sdk: SdkTasks, task: TaskFacts, requestOptions: SdkRequestOptions, params: ToolCallParams): Promise<TaskFacts> {
  let answer: unknown;
  try {
    answer = await sdk.get(task.taskId, requestOptions);
  } catch (error) {
    // The engine names a loss it saw (TASK_LOST already); without one, the server simply no longer has the task.
    if (!isUnknownTask(error)) throw error;
    const consent = typeof params._meta?.[IDEMPOTENCY_KEY] === 'string';
    throw new ResilienceError(taskLost({ taskId: task.taskId, cause: 'gone', recreatable: consent }), { cause: error });
  }
  const next = readTask(answer);
  if (!next) throw new ResilienceError({ code: 'MALFORMED_RESPONSE', message: 'tasks/get did not answer with a task', details: {} });
  return next;
}
