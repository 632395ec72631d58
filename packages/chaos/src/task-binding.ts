/**
 * What a task belongs to: `session` (the SDK's `InMemoryTaskStore` as the SDK passes it the
 * session id: another session's task is "not found", so a task is lost with its session, as
 * the official server does it), or `server` (the session id left out: a task outlives the
 * session that created it, as 2025-11-25 allows, and is lost only when the server restarts).
 */
export type TaskBinding = 'session' | 'server';

/** The task bindings, for validating options. */
export const TASK_BINDINGS: readonly TaskBinding[] = ['session', 'server'];
