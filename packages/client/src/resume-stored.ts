import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SessionStore, StoredSession } from './session-store.ts';
import { readStored, type StoreBound } from './store-call.ts';
import { sessionStoreKey } from './store-key.ts';

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
  /** The store; with a session to go on with, its first read of it already done: the engine reads it again, and gets that answer without a second trip. */
  readonly store: SessionStore;
}

/** Who the client is today: what its `initialize` would say (the SDK's `clientInfo` and capabilities). */
export interface TodaysClient {
  readonly clientInfo: unknown;
  readonly capabilities: unknown;
}

/**
 * What an SDK 1.x `Client` sends in its `initialize` today: its `clientInfo` and capabilities
 * (those of its options, and any registered since).
 *
 * @example
 * const today = todaysClient(new Client({ name: 'app', version: '2.0.0' }, { capabilities: { roots: {} } }));
 */
export function todaysClient(client: Client): TodaysClient {
  // Private fields of the SDK, the ones its initialize reads.
  const inside = client as unknown as { _clientInfo?: unknown; _capabilities?: unknown };
  return { clientInfo: inside._clientInfo, capabilities: inside._capabilities };
}

/** The store, answering the first read of `key` with `first` (one trip to a Durable Object, say, not two). */
function primed(store: SessionStore, key: string, first: StoredSession | undefined): SessionStore {
  let pending = true;
  return {
    get: (asked) => (asked === key && pending ? ((pending = false), first) : store.get(asked)),
    set: (asked, session) => store.set(asked, session),
    delete: (asked) => store.delete(asked),
  };
}

/**
 * The stored `initialize` as the client would send it today: its `clientInfo` and capabilities
 * in place of those of the client that stored it (the protocol version stays the session's). A
 * session opened later for this client says who it is now.
 *
 * @example
 * todaysInitialize(stored.initialize.body, { clientInfo: { name: 'app', version: '2.0.0' }, capabilities: {} });
 */
export function todaysInitialize(body: string, today: TodaysClient): string {
  try {
    const message = JSON.parse(body) as { params?: Record<string, unknown> };
    if (typeof message?.params !== 'object' || message.params === null) return body;
    const { clientInfo, capabilities } = today; // one the SDK no longer keeps where it is read leaves the stored one
    message.params = { ...message.params, ...(clientInfo === undefined ? {} : { clientInfo }), ...(capabilities === undefined ? {} : { capabilities }) };
    return JSON.stringify(message);
  } catch {
    return body;
  }
}

/**
 * Reads the session `store` holds for `endpoint` (an absolute URL, as `new URL(url).href`) and
 * `identity`, within the store's deadline: a store that fails, is silent, or holds nothing usable
 * gives no session (connect fresh). With `today`, the stored `initialize` names today's client.
 *
 * @example
 * const { resumeAs, stored, store } = await readStoredResume(sessionStore, new URL(url).href, { identity: 'user:42', bound });
 * const transport = new StreamableHTTPClientTransport(new URL(url), { fetch: createResilientFetch({ sessionStore: store, identity: 'user:42' }), sessionId: resumeAs });
 */
export async function readStoredResume(
  store: SessionStore, endpoint: string, options: { readonly identity?: string | undefined; readonly bound: StoreBound; readonly today?: TodaysClient },
): Promise<StoredResume> {
  const key = await sessionStoreKey(endpoint, options.identity).catch(() => undefined);
  if (key === undefined) return { store };
  let kept = await readStored(store, key, options.bound);
  const resumeAs = kept?.sessionId ?? kept?.lineage;
  if (kept && options.today) kept = { ...kept, initialize: { ...kept.initialize, body: todaysInitialize(kept.initialize.body, options.today) } };
  // Primed only with a session to go on with: the engine's first read is then the SDK's first request's.
  return resumeAs === undefined ? { store } : { resumeAs, stored: kept!, store: primed(store, key, kept) }; // a name: a session kept
}

interface SdkClientInside {
  _serverCapabilities?: unknown;
  _serverVersion?: unknown;
  _instructions?: string;
  _pendingListChangedConfig?: unknown;
  _setupListChangedHandlers?: (config: unknown) => void;
}

/**
 * Tells a connected SDK 1.x `Client` what its resumed session negotiated, as its `initialize`
 * would have: the transport sends the stored protocol version; `getServerCapabilities()` (with
 * the SDK's capability checks), `getServerVersion()` and `getInstructions()` answer what the
 * server said then; `listChanged` handlers given in the client's options are set up.
 *
 * @example
 * await client.connect(transport); // with `sessionId: resumeAs`: no initialize
 * if (stored) adoptStoredSession(client, stored);
 */
export function adoptStoredSession(client: Client, stored: StoredSession): void {
  (client.transport as { setProtocolVersion?: (version: string) => void } | undefined)?.setProtocolVersion?.(stored.revision);
  // The SDK keeps these in private fields that its checks and getters read; set there, as its initialize does.
  const inside = client as unknown as SdkClientInside;
  if (stored.serverInfo !== undefined) inside._serverVersion = stored.serverInfo;
  if (stored.instructions !== undefined) inside._instructions = stored.instructions;
  if (stored.capabilities !== undefined) {
    const capabilities = stored.capabilities as ReturnType<Client['getServerCapabilities']>;
    inside._serverCapabilities = capabilities;
    if (client.getServerCapabilities() !== capabilities) client.getServerCapabilities = () => capabilities;
  }
  if (inside._pendingListChangedConfig !== undefined && typeof inside._setupListChangedHandlers === 'function') {
    inside._setupListChangedHandlers(inside._pendingListChangedConfig);
    inside._pendingListChangedConfig = undefined;
  }
}

/**
 * Opens the standalone GET stream of a resumed client's SDK 1.x transport, as the transport does
 * itself once its `notifications/initialized` is accepted (a resumed client sends neither): the
 * server's messages outside any request reach the client again. Not by sending
 * `notifications/initialized` once more: the server had it when the session opened, and a second
 * one would run its `oninitialized` again. A server without the stream answers 405, which the
 * transport takes as "none"; its other failures go to `transport.onerror`, as for a fresh client.
 *
 * @example
 * await client.connect(transport); // resumed: no initialize, so no GET stream yet
 * openStandaloneStream(client);
 */
export function openStandaloneStream(client: Client): void {
  const transport = client.transport as { _startOrAuthSse?: (options: { resumptionToken: string | undefined }) => Promise<void> } | undefined;
  if (typeof transport?._startOrAuthSse === 'function') transport._startOrAuthSse({ resumptionToken: undefined }).catch(() => {});
}
