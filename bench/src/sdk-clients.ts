import { createResilientFetch, type ResilientFetchOptions } from '@mcp-resilience/node';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** No call in a benchmark waits longer than this (the SDK's default is 60 s). */
export const CALL_TIMEOUT_MS = 30_000;

/**
 * An official SDK 1.x client connected to `url`; through the engine when `engine` is given.
 *
 * @example
 * const plain = await connectClient(chaos.url);
 * const resilient = await connectClient(chaos.url, { tools: { readOnlyTools: ['echo'] } });
 */
export async function connectClient(url: string, engine?: ResilientFetchOptions): Promise<Client> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  client.onerror = () => {}; // background stream errors: the calls tell the story
  const options = engine === undefined ? {} : { fetch: createResilientFetch(engine) };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), options));
  return client;
}

/**
 * One `echo` call (the chaos server's read-only tool).
 *
 * @example
 * await echo(client, 'hello');
 */
export async function echo(client: Client, text: string): Promise<void> {
  await client.callTool({ name: 'echo', arguments: { text } }, undefined, { timeout: CALL_TIMEOUT_MS });
}

/** The milliseconds `work` took. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/**
 * The common application workaround, without this project: a call that fails gets a new
 * client (a new session), and is made once more on it. The new client replaces the shared one.
 *
 * @example
 * const holder = { client: await connectClient(url) };
 * await echoWithWorkaround(holder, url, 'hello');
 */
export async function echoWithWorkaround(holder: { client: Client }, url: string, text: string): Promise<void> {
  const used = holder.client;
  try {
    await echo(used, text);
  } catch {
    const fresh = await connectClient(url);
    if (holder.client === used) holder.client = fresh;
    await used.close().catch(() => {});
    await echo(fresh, text);
    if (holder.client !== fresh) await fresh.close().catch(() => {});
  }
}

/**
 * What a competent application without this project does: one client shared by every call, and
 * when calls fail, ONE reconnect shared by all of them (a promise kept while it is under way), each
 * failed call made once more on the new client. `reconnects` counts the new clients it opened.
 *
 * @example
 * const shared = await sharedReconnect(url);
 * await Promise.all(texts.map((t) => shared.echo(t))); // one reconnect, however many calls failed
 */
export interface SharedReconnect {
  readonly echo: (text: string) => Promise<void>;
  readonly reconnects: () => number;
  readonly close: () => Promise<void>;
}

/**
 * A {@link SharedReconnect} on a client connected to `url`.
 *
 * @example
 * const shared = await sharedReconnect(chaos.url);
 * await shared.echo('hello');
 * await shared.close();
 */
export async function sharedReconnect(url: string): Promise<SharedReconnect> {
  let client = await connectClient(url);
  let reconnecting: { readonly replaces: Client; readonly next: Promise<Client> } | undefined;
  let reconnects = 0;
  const replace = (used: Client): Promise<Client> => {
    if (client !== used) return Promise.resolve(client); // already replaced by another call's reconnect
    if (reconnecting?.replaces === used) return reconnecting.next;
    reconnects += 1;
    const next = connectClient(url).then((fresh) => {
      client = fresh;
      reconnecting = undefined;
      void used.close().catch(() => {});
      return fresh;
    }, (error: unknown) => {
      reconnecting = undefined;
      throw error;
    });
    reconnecting = { replaces: used, next };
    return next;
  };
  return {
    echo: async (text) => {
      const used = client;
      try {
        await echo(used, text);
      } catch {
        await echo(await replace(used), text);
      }
    },
    reconnects: () => reconnects,
    close: () => client.close().catch(() => {}),
  };
}
