import type { StoredSession } from '@mcp-resilience/client';
import { CREDENTIAL_HEADERS } from '@mcp-resilience/client/adapter';

/** Headers without credentials (the engine strips them already; a store never takes them on trust). */
function withoutCredentials(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())));
}

/**
 * The copy of a session a Durable Object keeps: the session as the engine hands it, with no
 * credential header in its `initialize` or `notifications/initialized`.
 *
 * @example
 * await storage.put(key, storableSession(session));
 */
export function storableSession(session: StoredSession): StoredSession {
  return {
    ...session,
    initialize: { body: session.initialize.body, headers: withoutCredentials(session.initialize.headers) },
    ...(session.initialized ? { initialized: { body: session.initialized.body, headers: withoutCredentials(session.initialized.headers) } } : {}),
  };
}
