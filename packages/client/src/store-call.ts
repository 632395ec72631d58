import { isResilienceError } from '@mcp-resilience/core';
import { STORE_DEADLINE_MS } from './limits.ts';
import type { Deadline } from './ports.ts';
import type { StoredSession } from './session-store.ts';

/** How long a store's answer is waited for: the runtime's deadline port, and the engine's bound on its own requests. */
export interface StoreBound {
  readonly deadline: Deadline;
  readonly requestDeadlineMs: number;
}

/**
 * A session store's answer to `work`, within {@link STORE_DEADLINE_MS} (and `requestDeadlineMs`):
 * `undefined` when it fails or does not answer in time. A store is a convenience: its failure
 * means "nothing stored", never a failed request, and one that never answers holds nothing.
 * Only a store bound wrong (`INVALID_BINDING`: an adapter's word for a binding to fix) rejects.
 *
 * @example
 * const stored = await storeCall(bound, () => store.get(key)); // undefined after 5 s of silence
 */
export async function storeCall<T>(bound: StoreBound, work: () => Promise<T> | T): Promise<T | undefined> {
  const ms = Math.min(STORE_DEADLINE_MS, bound.requestDeadlineMs);
  try {
    return await bound.deadline(ms, (signal) => new Promise<T>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      Promise.resolve().then(work).then(resolve, reject);
    }));
  } catch (error) {
    if (isResilienceError(error) && error.code === 'INVALID_BINDING') throw error; // a store set up wrong is told, never taken for an empty one
    return undefined;
  }
}

/**
 * Whether a value read from a store is a session the engine can go on with (a store written by
 * another version, or tampered with, counts as nothing stored).
 *
 * @example
 * const stored = isStoredSession(value) ? value : undefined;
 */
export function isStoredSession(value: unknown): value is StoredSession {
  const session = value as Partial<StoredSession> | null | undefined;
  return typeof session === 'object' && session !== null && typeof session.revision === 'string'
    && typeof session.initialize?.body === 'string' && typeof session.initialize.headers === 'object' && session.initialize.headers !== null
    && Array.isArray(session.subscriptions)
    && (session.sessionId === undefined || typeof session.sessionId === 'string')
    && (session.lineage === undefined || typeof session.lineage === 'string');
}

/**
 * The session a store holds under `key`, within the bound (see {@link storeCall}); `undefined`
 * when none, when the store fails or is silent, or when what it holds is not a session.
 *
 * @example
 * const stored = await readStored(store, key, { deadline, requestDeadlineMs: 20_000 });
 */
export async function readStored(store: { get(key: string): unknown }, key: string, bound: StoreBound): Promise<StoredSession | undefined> {
  const value = await storeCall(bound, () => store.get(key));
  return isStoredSession(value) ? value : undefined;
}
