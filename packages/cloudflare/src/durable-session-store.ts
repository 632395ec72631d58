import type { SessionStore, StoredSession } from '@mcp-resilience/client';
import { storableSession } from '@mcp-resilience/client/adapter';
import { ResilienceError } from '@mcp-resilience/core';
import type { McpSessionStore } from './session-store-object.ts';

/** The Durable Object binding of {@link McpSessionStore}, as `env` carries it. */
export type SessionStoreNamespace = DurableObjectNamespace<McpSessionStore>;

const DECLARE = 'bind it in wrangler.jsonc ("class_name": "McpSessionStore", in a "new_sqlite_classes" migration), export McpSessionStore from the Worker, pass env.<that binding>';

const misbound = (message: string, cause?: unknown) =>
  new ResilienceError({ code: 'INVALID_BINDING', message, details: { option: 'sessions' } }, cause === undefined ? undefined : { cause });

/**
 * The `sessions` option, checked: `undefined` is a binding read under a name `env` does not
 * have (a typo, or a binding not declared); anything else must be a Durable Object namespace.
 * Throws `INVALID_BINDING` saying what to fix.
 */
function checkedNamespace(value: unknown): SessionStoreNamespace {
  if (value === undefined || value === null) throw misbound(`sessions is ${value}: env has no binding of that name; ${DECLARE}`);
  const namespace = value as Partial<SessionStoreNamespace>;
  if (typeof namespace.idFromName !== 'function' || typeof namespace.get !== 'function') {
    throw misbound(`sessions is not a Durable Object namespace binding; ${DECLARE}`);
  }
  return value as SessionStoreNamespace;
}

/**
 * What a failed call on the object means: a binding to another class is named as such; anything
 * else passes as it is (workerd's own word for a class without SQLite already says what to fix).
 */
function explained(error: unknown): unknown {
  const message = error instanceof Error ? error.message : String(error);
  return /RPC receiver does not implement/.test(message)
    ? misbound(`sessions is not an McpSessionStore (${message}); ${DECLARE}`, error)
    : error;
}

/**
 * The engine's `sessionStore` port on a {@link McpSessionStore} Durable Object: the object
 * named `name` (one per user, tenant or agent; default `"default"`) keeps the sessions of
 * every endpoint this Worker reaches under that name. A missing or misnamed binding throws
 * `INVALID_BINDING` here, and a binding to another class on first use, each saying what to fix.
 *
 * @example
 * const store = durableSessionStore(env.MCP_SESSIONS, `user:${userId}`);
 * const fetch = createResilientFetch({ ctx, sessionStore: store });
 */
export function durableSessionStore(namespace: SessionStoreNamespace, name = 'default'): SessionStore {
  const checked = checkedNamespace(namespace);
  const stub = () => checked.get(checked.idFromName(name));
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw explained(error);
    }
  };
  return {
    get: (endpoint) => call(async () => (await stub().getSession(endpoint)) as StoredSession | undefined),
    set: (endpoint, session) => call(async () => void (await stub().putSession(endpoint, storableSession(session)))),
    delete: (endpoint) => call(async () => void (await stub().deleteSession(endpoint))),
  };
}
