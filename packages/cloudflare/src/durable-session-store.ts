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
 * What a failed call on the object means: a binding to another class is named as such, a class
 * without SQLite in workerd's own words (they say what to fix), both `INVALID_BINDING`; anything
 * else passes as it is.
 */
function explained(error: unknown): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (/RPC receiver does not implement/.test(message)) return misbound(`sessions is not an McpSessionStore (${message}); ${DECLARE}`, error);
  // Typed, so that connect() reports it instead of taking it for a store that holds nothing.
  return /new_sqlite_classes/.test(message) ? misbound(message, error) : error;
}

/**
 * The engine's `sessionStore` port on a {@link McpSessionStore} Durable Object: the object
 * named `name` (one per user, tenant or agent; default `"default"`) keeps the sessions of
 * every endpoint this Worker reaches under that name, each under the engine's key (a digest of
 * the endpoint and identity: no secret of the URL), never with a credential. A missing or misnamed binding throws
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
    get: (key) => call(async () => (await stub().getSession(key)) as StoredSession | undefined),
    set: (key, session) => call(async () => void (await stub().putSession(key, storableSession(session)))),
    delete: (key) => call(async () => void (await stub().deleteSession(key))),
  };
}
