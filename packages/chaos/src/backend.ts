import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChaosClock } from './chaos-clock.ts';
import type { ExecutionLedger } from './ledger.ts';
import type { ChangeableResource } from './resource.ts';
import type { TaskJobs } from './task-jobs.ts';

/**
 * What serves MCP behind the fault layer: the official SDK's stateful server (`legacy`),
 * the newer SDK line in 2026-07-28 mode (`modern`), or another server (`proxy`). The fault
 * layer decides which sessions are alive and answers dead ones itself, so a backend only
 * sees requests for sessions it should still have.
 */
export interface Backend {
  readonly mode: 'legacy' | 'modern' | 'proxy';
  /** Serves one request. `body` is the parsed JSON of a POST (or its raw text when it is not JSON). */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void>;
  /** Frees what a session held (its transport, its streams): it was evicted or expired. */
  dropSession(sessionId: string): Promise<void>;
  /** Frees every session: the server restarted. */
  dropAll(): Promise<void>;
  close(): Promise<void>;
}

/** What backends share with the fault layer and the control API. */
export interface BackendContext {
  readonly ledger: ExecutionLedger;
  readonly resource: ChangeableResource;
  /** The tasks of the server (its sessions share them, bound as the server was started). */
  readonly tasks: TaskJobs;
  /** The server's clock: the tools' work takes its time on it. */
  readonly clock: ChaosClock;
}
