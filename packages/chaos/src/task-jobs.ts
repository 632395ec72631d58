import type { TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import type { TaskBinding } from './task-binding.ts';

/** The store with the session ids left out: every session sees every task. */
function serverBound(store: TaskStore): TaskStore {
  return {
    createTask: (params, requestId, request) => store.createTask(params, requestId, request),
    getTask: (taskId) => store.getTask(taskId),
    storeTaskResult: (taskId, status, result) => store.storeTaskResult(taskId, status, result),
    getTaskResult: (taskId) => store.getTaskResult(taskId),
    updateTaskStatus: (taskId, status, message) => store.updateTaskStatus(taskId, status, message),
    listTasks: (cursor) => store.listTasks(cursor),
  };
}

/**
 * The tasks of one chaos server: one task store shared by its sessions (the SDK's own, bound
 * as {@link TaskBinding} says) and the work running for them. A restart forgets every task and
 * stops every job, as a process that died would; an eviction stops nothing.
 *
 * @example
 * const jobs = new TaskJobs('server');
 * new McpServer(info, { taskStore: jobs.store });
 * jobs.run(async (signal) => { … });
 */
export class TaskJobs {
  readonly #memory = new InMemoryTaskStore();
  readonly #running = new Set<AbortController>();
  readonly store: TaskStore;

  constructor(readonly binding: TaskBinding = 'session') {
    this.store = binding === 'server' ? serverBound(this.#memory) : this.#memory;
  }

  /** Runs a task's work in the background until it ends or the server restarts; its failures are its own. */
  run(work: (signal: AbortSignal) => Promise<void>): void {
    const controller = new AbortController();
    this.#running.add(controller);
    void work(controller.signal).catch(() => {}).finally(() => this.#running.delete(controller));
  }

  /** The server restarted (or stops): every job stopped, every task forgotten. */
  clear(): void {
    for (const controller of this.#running) controller.abort();
    this.#running.clear();
    this.#memory.cleanup();
  }
}
