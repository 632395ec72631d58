import type { Client, ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransportOptions } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { invalidOption, ResilienceError } from '@mcp-resilience/core';
import { DEFAULT_REQUEST_DEADLINE_MS } from './limits.ts';
import { DEFAULT_PORTS } from './ports.ts';
import { createResilientFetch, type ResilientFetchOptions } from './resilient-fetch.ts';
import { adoptStoredSession, openStandaloneStream, readStoredResume, todaysClient } from './resume-stored.ts';
import { checkedIdentity } from './store-key.ts';

/** Options of {@link connect}: the engine's options plus what the SDK client and transport take. */
export interface ConnectOptions extends ResilientFetchOptions {
  /** Who the client says it is in `initialize` (default `{ name: 'mcp-resilience', version: '0.0.0' }`). */
  readonly clientInfo?: Implementation;
  /** The SDK `Client`'s second argument: capabilities, JSON-schema validator, timeouts, … */
  readonly clientOptions?: ClientOptions;
  /** The transport's other options (`requestInit`, `authProvider`, `reconnectionOptions`, …); `fetch` is the engine's. */
  readonly transportOptions?: Omit<StreamableHTTPClientTransportOptions, 'fetch'>;
  /**
   * Go on with the session `sessionStore` holds for this URL and `identity` (kept before a reload,
   * or by the Worker's previous request): no `initialize` is sent; the client knows the protocol
   * version, capabilities, server version and instructions of that session, and opens its
   * standalone GET stream as a fresh client does; a new session opened for it later sends
   * today's `clientInfo` and capabilities. With none stored, a store that fails or does not
   * answer in time, or a `transportOptions.sessionId` given, it connects as usual. Needs
   * `identity` (else `INVALID_OPTION`): a stored session is only gone on with by its own user.
   * Default `false`; the browser and Workers adapters turn it on.
   *
   * @example
   * const client = await connect(url, { sessionStore: store, resumeStored: true, identity: `user:${userId}` });
   * client.getServerCapabilities(); // what the stored session negotiated
   */
  readonly resumeStored?: boolean;
}

type Sdk = [typeof import('@modelcontextprotocol/sdk/client/index.js'), typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js')];

/** The SDK is an optional peer: loaded on first use, so the engine alone never needs it. */
async function loadSdk(): Promise<Sdk> {
  try {
    return await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    ]);
  } catch (error) {
    throw new ResilienceError(
      { code: 'PEER_MISSING', message: 'connect() needs the MCP SDK 1.x: npm i @modelcontextprotocol/sdk', details: { package: '@modelcontextprotocol/sdk' } },
      { cause: error },
    );
  }
}

/**
 * Opens a connected official SDK 1.x `Client` (`@modelcontextprotocol/sdk`) whose Streamable
 * HTTP transport sends everything through {@link createResilientFetch}: the client survives
 * session churn with no other change. Failures reach calls as the typed `ResilienceError`s of
 * `@mcp-resilience/core`; without the SDK installed it rejects with `PEER_MISSING`. With
 * `resumeStored`, it goes on with the session the `sessionStore` holds. Close the client with
 * `client.close()` when done: that closes the engine too.
 *
 * @example
 * const client = await connect('http://127.0.0.1:3000/mcp', { onEvent: (e) => console.log(e.type) });
 * const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
 * await client.close();
 */
export async function connect(url: string | URL, options: ConnectOptions = {}): Promise<Client> {
  const { clientInfo, clientOptions, transportOptions, resumeStored, ...fetchOptions } = options;
  const identity = checkedIdentity(fetchOptions.identity);
  if (resumeStored && fetchOptions.sessionStore && identity === undefined) {
    throw invalidOption('identity', 'given to resume a stored session: the user, tenant or agent it belongs to (or resumeStored: false; in a browser, persist: false)');
  }
  const [{ Client: SdkClient }, { StreamableHTTPClientTransport }] = await loadSdk();
  const endpoint = new URL(url);
  const client = new SdkClient(clientInfo ?? { name: 'mcp-resilience', version: '0.0.0' }, clientOptions);
  // The stored session to go on with, when asked to and none was named by the caller.
  const resume = resumeStored && fetchOptions.sessionStore && transportOptions?.sessionId === undefined
    ? await readStoredResume(fetchOptions.sessionStore, endpoint.href, {
      identity,
      bound: { deadline: fetchOptions.deadline ?? DEFAULT_PORTS.deadline, requestDeadlineMs: fetchOptions.requestDeadlineMs ?? DEFAULT_REQUEST_DEADLINE_MS },
      today: todaysClient(client),
    })
    : undefined;
  // A transport with an auth provider renews refused credentials: the engine's calls wait for that one renewal.
  const renewsCredentials = fetchOptions.renewsCredentials ?? transportOptions?.authProvider !== undefined;
  const fetch = createResilientFetch({ ...fetchOptions, renewsCredentials, ...(resume ? { sessionStore: resume.store } : {}) });
  // A session id makes the SDK skip `initialize`; the engine puts the live id on every request.
  const sessionId = transportOptions?.sessionId ?? resume?.resumeAs;
  const transport = new StreamableHTTPClientTransport(endpoint, { ...transportOptions, ...(sessionId === undefined ? {} : { sessionId }), fetch });
  // Closing the client lets its engine go too: no wait of it outlives the client.
  const closeClient = client.close.bind(client);
  client.close = () => closeClient().finally(() => fetch.close());
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
  if (resume?.stored) {
    adoptStoredSession(client, resume.stored);
    openStandaloneStream(client);
  }
  return client;
}
