import type { SessionStore, StoredSession } from '@mcp-resilience/client';
import { CREDENTIAL_HEADERS } from '@mcp-resilience/client/adapter';
import type { McpSessionStore } from './session-store-object.ts';

/** The Durable Object binding of {@link McpSessionStore}, as `env` carries it. */
export type SessionStoreNamespace = DurableObjectNamespace<McpSessionStore>;

/** Headers without credentials (the engine strips them already; a store never takes them on trust). */
function withoutCredentials(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())));
}

function storable(session: StoredSession): StoredSession {
  return {
    ...session,
    initialize: { body: session.initialize.body, headers: withoutCredentials(session.initialize.headers) },
    ...(session.initialized ? { initialized: { body: session.initialized.body, headers: withoutCredentials(session.initialized.headers) } } : {}),
  };
}

/**
 * The engine's `sessionStore` port on a {@link McpSessionStore} Durable Object: the object
 * named `name` (one per user, tenant or agent; default `"default"`) keeps the sessions of
 * every endpoint this Worker reaches under that name.
 *
 * @example
 * const store = durableSessionStore(env.MCP_SESSIONS, `user:${userId}`);
 * const fetch = createResilientFetch({ ctx, sessionStore: store });
 */
export function durableSessionStore(namespace: SessionStoreNamespace, name = 'default'): SessionStore {
  const stub = () => namespace.get(namespace.idFromName(name));
  return {
    get: async (endpoint) => (await stub().getSession(endpoint)) as StoredSession | undefined,
    set: async (endpoint, session) => void (await stub().putSession(endpoint, storable(session))),
    delete: async (endpoint) => void (await stub().deleteSession(endpoint)),
  };
}
