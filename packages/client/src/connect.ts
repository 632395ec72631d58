import type { Client, ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransportOptions } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { createResilientFetch, type ResilientFetchOptions } from './resilient-fetch.ts';

/** Options of {@link connect}: the engine's options plus what the SDK client and transport take. */
export interface ConnectOptions extends ResilientFetchOptions {
  /** Who the client says it is in `initialize` (default `{ name: 'mcp-resilience', version: '0.0.0' }`). */
  readonly clientInfo?: Implementation;
  /** The SDK `Client`'s second argument: capabilities, JSON-schema validator, timeouts, … */
  readonly clientOptions?: ClientOptions;
  /** The transport's other options (`requestInit`, `authProvider`, `reconnectionOptions`, …); `fetch` is the engine's. */
  readonly transportOptions?: Omit<StreamableHTTPClientTransportOptions, 'fetch'>;
}

const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcp-resilience', version: '0.0.0' };

type Sdk = [typeof import('@modelcontextprotocol/sdk/client/index.js'), typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js')];

/** The SDK is an optional peer: loaded on first use, so the engine alone never needs it. */
async function loadSdk(): Promise<Sdk> {
  try {
    return await Promise.all([
      import('@modelcontextprotocol/sdk/client/index.js'),
      import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    ]);
  } catch (error) {
    throw new Error('connect() needs the official MCP SDK 1.x: npm i @modelcontextprotocol/sdk', { cause: error });
  }
}

/**
 * Opens a connected official SDK 1.x `Client` (`@modelcontextprotocol/sdk`) whose Streamable
 * HTTP transport sends everything through {@link createResilientFetch}: the client survives
 * session churn with no other change. Failures reach calls as the typed `ResilienceError`s of
 * `@mcp-resilience/core`. Close the client with `client.close()` when done: that closes the engine too.
 *
 * @example
 * const client = await connect('http://127.0.0.1:3000/mcp', { onEvent: (e) => console.log(e.type) });
 * const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
 * await client.close();
 */
export async function connect(url: string | URL, options: ConnectOptions = {}): Promise<Client> {
  const { clientInfo, clientOptions, transportOptions, ...fetchOptions } = options;
  const [{ Client: SdkClient }, { StreamableHTTPClientTransport }] = await loadSdk();
  const fetch = createResilientFetch(fetchOptions);
  const transport = new StreamableHTTPClientTransport(new URL(url), { ...transportOptions, fetch });
  const client = new SdkClient(clientInfo ?? DEFAULT_CLIENT_INFO, clientOptions);
  // Closing the client lets its engine go too: no wait of it outlives the client.
  const closeClient = client.close.bind(client);
  client.close = () => closeClient().finally(() => fetch.close());
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
  return client;
}
