import { defined } from './defined.ts';
import type { LossCause } from './diagnose.ts';
import type { ErrorInfo } from './errors.ts';
import { revisionTraits } from './revisions.ts';
import { isNonNegative, isRecord } from './values.ts';

/**
 * Where a task is in its life (2025-11-25); the last three are terminal.
 *
 * @example
 * const status: TaskStatus | undefined = readTask(result)?.status; // 'working', 'completed', …
 */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

const STATUSES: readonly unknown[] = ['working', 'input_required', 'completed', 'failed', 'cancelled'];

/**
 * What a client needs of a task the server described (`CreateTaskResult.task`, a `tasks/get` result).
 *
 * @example
 * const task: TaskFacts | undefined = readTask({ task: { taskId: 't1', status: 'working', pollInterval: 500 } });
 * // { taskId: 't1', status: 'working', pollIntervalMs: 500 }
 */
export interface TaskFacts {
  readonly taskId: string;
  readonly status: TaskStatus;
  /** The server's suggested wait between polls. */
  readonly pollIntervalMs?: number;
  /** How long after its creation the server keeps the task; `null`: unlimited. */
  readonly ttlMs?: number | null;
  readonly statusMessage?: string;
}

/**
 * A task as the server described it (a `Task`, or a `CreateTaskResult` holding one), checked;
 * `undefined` when it is not one. A `pollInterval` or `ttl` that is not a number `>= 0` is left out.
 *
 * @example
 * readTask({ task: { taskId: 't1', status: 'working', pollInterval: 500, ttl: 60000 } })
 * // { taskId: 't1', status: 'working', pollIntervalMs: 500, ttlMs: 60000 }
 */
export function readTask(value: unknown): TaskFacts | undefined {
  const task = isRecord(value) && isRecord(value.task) ? value.task : value;
  if (!isRecord(task)) return undefined;
  const { taskId, status, pollInterval, ttl, statusMessage } = task;
  if (typeof taskId !== 'string' || taskId === '' || !STATUSES.includes(status)) return undefined;
  return defined({
    taskId, status: status as TaskStatus,
    pollIntervalMs: isNonNegative(pollInterval) ? pollInterval : undefined,
    ttlMs: ttl === null || isNonNegative(ttl) ? ttl : undefined,
    statusMessage: typeof statusMessage === 'string' ? statusMessage : undefined,
  });
}

/**
 * Whether a request creates a task: it carries `params.task` (2025-11-25) and is not one of the
 * `tasks/*` requests (the SDK 1.x sends its task options on those too; they create nothing).
 *
 * @example
 * createsTask('tools/call', { name: 'report', task: { ttl: 60000 } }) // true
 * createsTask('tasks/get', { taskId: 't1', task: {} })                // false
 */
export function createsTask(method: string | undefined, params: unknown): boolean {
  return isRecord(params) && isRecord(params.task) && method !== undefined && !method.startsWith('tasks/');
}

/**
 * Whether a tool call goes as a task (`task`) or as a plain call (`plain`): only on a revision
 * with tasks in its core (2025-11-25), with the server's `tasks.requests.tools.call` capability,
 * for a tool whose `execution.taskSupport` is `optional` or `required`. On 2026-07-28 tasks are
 * an extension this client does not declare, so a conforming server answers plainly.
 *
 * @example
 * taskMode({ revision: '2025-11-25', capabilities: { tasks: { requests: { tools: { call: {} } } } }, taskSupport: 'optional' }) // 'task'
 */
export function taskMode(input: { readonly revision?: string; readonly capabilities?: unknown; readonly taskSupport?: unknown }): 'task' | 'plain' {
  const tasks = isRecord(input.capabilities) ? input.capabilities.tasks : undefined;
  const requests = isRecord(tasks) ? tasks.requests : undefined;
  const tools = isRecord(requests) ? requests.tools : undefined;
  const offered = revisionTraits(input.revision).tasks === 'core' && isRecord(tools) && isRecord(tools.call);
  return offered && (input.taskSupport === 'optional' || input.taskSupport === 'required') ? 'task' : 'plain';
}

/**
 * How long a caller polls one task.
 *
 * @example
 * const policy: TaskPollPolicy = { ...DEFAULT_TASK_POLL, maxWaitMs: 60_000 };
 * nextTaskStep({ task, policy, startedAtMs, createdAtMs, nowMs });
 */
export interface TaskPollPolicy {
  /** Between polls when the server suggests nothing. */
  readonly defaultIntervalMs: number;
  /** The shortest wait between polls, whatever the server suggests (a `pollInterval` of 0 is no reason to spin); 1 ms at least. */
  readonly minIntervalMs: number;
  /** The longest the caller polls one task; past it, `TASK_UNFINISHED`. */
  readonly maxWaitMs: number;
}

/**
 * One second between polls by default, never under 50 ms, for an hour at most.
 *
 * @example
 * nextTaskStep({ task, policy: { ...DEFAULT_TASK_POLL, maxWaitMs: 60_000 }, startedAtMs, createdAtMs, nowMs });
 */
export const DEFAULT_TASK_POLL: TaskPollPolicy = Object.freeze({ defaultIntervalMs: 1_000, minIntervalMs: 50, maxWaitMs: 3_600_000 });

/**
 * What to do after a task status: `poll` again after `delayMs`, `fetch-result` (`tasks/result`:
 * the task ended, or needs input, which `tasks/result` carries), or `give-up`.
 */
export type TaskStep =
  | { readonly type: 'poll'; readonly delayMs: number }
  | { readonly type: 'fetch-result' }
  | { readonly type: 'give-up'; readonly error: ErrorInfo };

/** Everything {@link nextTaskStep} looks at; times in ms on one clock. */
export interface TaskPollInput {
  readonly task: TaskFacts;
  readonly nowMs: number;
  /** When polling began. */
  readonly startedAtMs: number;
  /** When the task was asked for (its TTL counts from its creation, a little later). */
  readonly createdAtMs: number;
  readonly policy?: TaskPollPolicy;
}

/**
 * The next step of polling a task. The server's `pollInterval` is honoured (never polled
 * sooner, nor under the policy's minimum); no wait runs past the task's TTL or the caller's
 * `maxWaitMs`, so the last poll comes at that deadline, and a task still running then is
 * `TASK_UNFINISHED` (it may finish yet: its id is in the error). A task `cancelled` by anyone
 * else is `TASK_CANCELLED`.
 *
 * @example
 * nextTaskStep({ task: { taskId: 't1', status: 'working', pollIntervalMs: 500 }, nowMs: 1000, startedAtMs: 0, createdAtMs: 0 })
 * // { type: 'poll', delayMs: 500 }
 */
export function nextTaskStep(input: TaskPollInput): TaskStep {
  const { task, nowMs } = input;
  const policy = input.policy ?? DEFAULT_TASK_POLL;
  const details = { taskId: task.taskId, status: task.status };
  if (task.status === 'cancelled') return { type: 'give-up', error: { code: 'TASK_CANCELLED', message: 'The task was cancelled', details } };
  if (task.status !== 'working') return { type: 'fetch-result' };
  const waitEnd = input.startedAtMs + policy.maxWaitMs;
  const ttlEnd = task.ttlMs == null ? Infinity : input.createdAtMs + task.ttlMs;
  const deadline = Math.min(waitEnd, ttlEnd);
  if (nowMs >= deadline) {
    const reason = nowMs >= waitEnd ? 'max-wait' : 'ttl';
    return { type: 'give-up', error: { code: 'TASK_UNFINISHED', message: 'Polling stopped while the task was still running', details: { ...details, reason } } };
  }
  const interval = Math.max(task.pollIntervalMs ?? policy.defaultIntervalMs, policy.minIntervalMs, 1);
  return { type: 'poll', delayMs: Math.min(interval, deadline - nowMs) };
}

/**
 * Why a task was lost: its session's loss, or the server discarded it (`gone`).
 *
 * @example
 * const cause: TaskLossCause = 'gone'; // or a session's LossCause
 * taskLost({ taskId: 't1', cause, recreatable: false }).details.mayStillRun // true
 */
export type TaskLossCause = LossCause | 'gone';

/**
 * The `TASK_LOST` error: the server no longer knows the task. `mayStillRun` says whether its
 * work may go on (or have gone on) out of sight: true unless the server restarted. `recreatable`:
 * the creation was safe to send again (a tool vouched for, the caller's consent), so starting it
 * anew cannot run it twice where that matters.
 *
 * @example
 * taskLost({ taskId: 't1', cause: 'server-restarted', recreatable: false }).details // { taskId: 't1', cause: 'server-restarted', mayStillRun: false, recreatable: false }
 */
export function taskLost(input: { readonly taskId: string; readonly cause: TaskLossCause; readonly recreatable: boolean }): ErrorInfo {
  const { taskId, cause, recreatable } = input;
  return {
    code: 'TASK_LOST', message: 'The server no longer knows the task',
    details: { taskId, cause, mayStillRun: cause !== 'server-restarted', recreatable },
  };
}

/**
 * Whether a JSON-RPC error answering `tasks/get`, `tasks/result` or `tasks/cancel` says the
 * task is unknown: `-32602`, the code both revisions give for a nonexistent `taskId`.
 *
 * @example
 * isUnknownTask({ code: -32602, message: 'Failed to retrieve task: Task not found' }) // true
 */
export function isUnknownTask(error: unknown): boolean {
  return isRecord(error) && error.code === -32602;
}

/**
 * What an answer about a task means when the task was last known on session `knownOn` and the
 * answer came on session `answeredOn`: `survived` (the task lives on a newer session), `lost`
 * (the server no longer knows it, and the session it was known on was lost: `cause`), or
 * `same` (nothing to say: the same session, no session logic on this revision, or a task
 * unknown for another reason, which the caller hears of as the server said it).
 *
 * @example
 * followTask({ revision: '2025-11-25', knownOn: 1, answeredOn: 2, unknown: false }) // { type: 'survived' }
 */
export function followTask(input: {
  readonly revision?: string; readonly knownOn: number; readonly answeredOn: number; readonly unknown: boolean; readonly loss?: LossCause;
}): { readonly type: 'survived' | 'same' } | { readonly type: 'lost'; readonly cause: LossCause } {
  if (!revisionTraits(input.revision).sessions || input.answeredOn === input.knownOn) return { type: 'same' };
  if (!input.unknown) return { type: 'survived' };
  return input.loss === undefined ? { type: 'same' } : { type: 'lost', cause: input.loss };
}
