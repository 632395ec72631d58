import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SessionStore, StoredSession } from './session-store.ts';

/** What {@link readStoredResume} found: the session to go on with, if any, and the store to hand the engine. */
export interface StoredResume {
  /**
   * What the SDK transport is given as its session id: the stored session's live id, or (lost and
   * not replaced yet) its lineage's name. Either way the engine goes on with that lineage; with
   * one, the SDK sends no `initialize`.
   */
  readonly resumeAs?: string;
  /** The stored session, when there is one to go on with. */
  readonly stored?: StoredSession;
  /** The store, with its first read of the endpoint already done: the engine reads it again, and gets that answer without a second trip. */
  readonly store: SessionStore;
}

/** The store, answering the first read of `endpoint` with `first` (one trip to a Durable Object, say, not two). */
function primed(store: SessionStore, endpoint: string, first: StoredSession | undefined): SessionStore {
  let pending = true;
  return {
    get: (key) => (key === endpoint && pending ? ((pending = false), first) : store.get(key)),
    set: (key, session) => store.set(key, session),
    delete: (key) => store.delete(key),
  };
}

/**
 * Reads the session `store` holds for `endpoint` (an absolute URL, as `new URL(url).href`).
 *
 * @example
 * const { resumeAs, stored, store } = await readStoredResume(sessionStore, new URL(url).href);
 * const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: createResilientFetch({ sessionStore: store }), sessionId: resumeAs });
 */
export async function readStoredResume(store: SessionStore, endpoint: string): Promise<StoredResume> {
  const kept = await store.get(endpoint);
  const resumeAs = kept?.sessionId ?? kept?.lineage;
  const primedStore = primed(store, endpoint, kept);
  return resumeAs === undefined ? { store: primedStore } : { resumeAs, stored: kept!, store: primedStore }; // a name: a session kept
}

/**
 * Tells a connected SDK 1.x `Client` what its resumed session negotiated, as its `initialize`
 * would have: the transport sends the stored protocol version, and `getServerCapabilities()`
 * (with the SDK's capability checks) answers the stored capabilities.
 *
 * @example
 * await client.connect(transport); // with `sessionId: resumeAs`: no initialize
 * if (stored) adoptStoredSession(client, stored);
 */
export function adoptStoredSession(client: Client, stored: StoredSession): void {
  (client.transport as { setProtocolVersion?: (version: string) => void } | undefined)?.setProtocolVersion?.(stored.revision);
  if (stored.capabilities === undefined) return;
  const capabilities = stored.capabilities as ReturnType<Client['getServerCapabilities']>;
  // The SDK keeps them in a private field that its capability checks read; set there, as its initialize does.
  (client as unknown as { _serverCapabilities?: unknown })._serverCapabilities = capabilities;
  if (client.getServerCapabilities() !== capabilities) client.getServerCapabilities = () => capabilities;
}
