import {
  createsTask, defined, followTask, isReplaySafe, isUnknownTask, readTask, taskLost, type LossCause, type Operation,
} from '@mcp-resilience/core';
import type { Engine } from './engine.ts';
import { surfaced, type RpcMessage } from './messages.ts';

/** Tasks remembered per endpoint; past it the oldest is forgotten. */
const TASKS_KEPT = 100;
/** Losses remembered per endpoint (by session ordinal). */
const LOSSES_KEPT = 20;
/** How long a finished task keeps its session in use while its result is not fetched yet. */
const RESULT_FETCH_WITHIN_MS = 30_000;
/** The requests about one task (`params.taskId`). */
const FOLLOWED = new Set(['tasks/get', 'tasks/result', 'tasks/cancel']);

interface Tracked {
  /** The task's ordinal: events name tasks by it, never by id. */
  readonly ordinal: number;
  /** The session the task was last answered on. */
  session: number;
  /**
   * Its session is in use until `heldUntilMs`: the task runs, or it ended and its result is not
   * fetched yet (a replaced session would take a session-bound result with it). Released by
   * `tasks/result` or a cancellation; capped by the task's TTL, and once it ended by
   * RESULT_FETCH_WITHIN_MS.
   */
  held: boolean;
  heldUntilMs: number;
  /** Its creation was safe to send again: starting it anew cannot run it twice where that matters. */
  readonly recreatable: boolean;
}

/**
 * The tasks created through one endpoint (2025-11-25: a request with `params.task` answered with
 * a task), by the session each was last answered on, and the sessions found lost, with their
 * diagnosis. An answer about a known task on a newer session says the task survived its
 * session's loss (`task-survived`); an unknown-task error there says the server lost it with that
 * session: the call gets `TASK_LOST` (`task-lost`), never a silent re-creation. A session
 * holding a task that runs, or whose result is not fetched yet, is in use. Task ids stay here:
 * events carry ordinals.
 *
 * @example
 * const instead = tasks.answered(request, answer, session.ordinal, revision, operation);
 */
export class TaskTracker {
  readonly #tasks = new Map<string, Tracked>();
  readonly #losses = new Map<number, LossCause>();
  #count = 0;

  readonly #engine: Engine;

  /** `client`: its lineage's number, for the events (see `Lineage.client`). */
  constructor(engine: Engine, readonly client?: number) {
    this.#engine = engine;
  }

  /** A session was found lost, with this cause: the tasks known on it may have gone with it. */
  sessionLost(session: number, cause: LossCause): void {
    this.#losses.set(session, cause);
    if (this.#losses.size > LOSSES_KEPT) this.#losses.delete(this.#losses.keys().next().value!);
  }

  /** Whether a task known on `session` runs or waits for its result to be fetched: the session is in use, never idle. */
  holdsTask(session: number): boolean {
    const now = this.#engine.ports.now();
    for (const task of this.#tasks.values()) if (task.session === session && task.held && now < task.heldUntilMs) return true;
    return false;
  }

  /** A message the server sent: a task's status notification. */
  notice(message: RpcMessage): void {
    if (message.method !== 'notifications/tasks/status') return;
    const task = readTask(message.params);
    const tracked = task && this.#tasks.get(task.taskId);
    if (tracked) this.#statusOf(tracked, task.status);
  }

  /**
   * Takes a request and its answer, on session `on`: learns a task it created, follows one it
   * is about. Returns the answer to hand on instead, when the server lost the task with its session.
   */
  answered(request: RpcMessage, answer: RpcMessage, on: number, revision: string | undefined, operation: Operation): RpcMessage | undefined {
    if (createsTask(request.method, request.params)) return void this.#learn(answer, on, operation);
    const taskId = request.params?.taskId as string; // tasks are kept by string ids: no other finds one
    const tracked = FOLLOWED.has(request.method!) ? this.#tasks.get(taskId) : undefined;
    if (!tracked) return undefined;
    // tasks/result answers what the task's own request would have: its -32602 may be the tool's, not "unknown task".
    const unknown = request.method !== 'tasks/result' && 'error' in answer && isUnknownTask(answer.error);
    const step = followTask(defined({ revision, knownOn: tracked.session, answeredOn: on, unknown, loss: this.#losses.get(tracked.session) }));
    if (step.type === 'lost') return this.#lost(taskId, tracked, step.cause, answer, request.method!);
    if (step.type === 'survived') {
      this.#engine.emit({ type: 'task-survived', task: tracked.ordinal, from: tracked.session, session: on }, this.client);
      tracked.session = on;
    }
    if (request.method === 'tasks/result') tracked.held = false;
    else {
      const status = readTask(answer.result)?.status;
      if (status !== undefined) this.#statusOf(tracked, status);
    }
    return undefined;
  }

  #statusOf(tracked: Tracked, status: string): void {
    if (status === 'cancelled') tracked.held = false;
    else if (status === 'completed' || status === 'failed') tracked.heldUntilMs = Math.min(tracked.heldUntilMs, this.#engine.ports.now() + RESULT_FETCH_WITHIN_MS);
  }

  #learn(answer: RpcMessage, on: number, operation: Operation): void {
    const task = readTask(answer.result);
    if (!task) return;
    const { replay, tools } = this.#engine.policy;
    const tracked: Tracked = {
      ordinal: ++this.#count, session: on, held: true,
      heldUntilMs: task.ttlMs == null ? Infinity : this.#engine.ports.now() + task.ttlMs,
      recreatable: isReplaySafe(operation, replay, tools),
    };
    this.#tasks.set(task.taskId, tracked);
    this.#statusOf(tracked, task.status);
    if (this.#tasks.size > TASKS_KEPT) this.#tasks.delete(this.#tasks.keys().next().value!);
  }

  #lost(taskId: string, tracked: Tracked, cause: LossCause, answer: RpcMessage, method: string): RpcMessage {
    this.#tasks.delete(taskId);
    const error = taskLost({ taskId, cause, recreatable: tracked.recreatable });
    const { mayStillRun, recreatable } = error.details as { mayStillRun: boolean; recreatable: boolean };
    this.#engine.emit({ type: 'task-lost', task: tracked.ordinal, session: tracked.session, method, cause, mayStillRun, recreatable }, this.client);
    return surfaced(answer.id!, error);
  }
}
