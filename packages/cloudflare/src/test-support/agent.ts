import { DurableObject } from 'cloudflare:workers';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { durableClient, type DurableClient } from '../index.ts';

/** What one request to the agent saw. */
export interface AgentAnswer {
  readonly text: string | undefined;
  /** The types of every event of this instance's engine so far. */
  readonly events: string[];
  /** How many SDK clients this instance has used: 1 while every request shares the held one. */
  readonly clients: number;
  /** Which instance of the object answered (a new one after the runtime reset it). */
  readonly instance: string;
}

/** What the tests must not do, to show why: one holder in a module global, for every object of this isolate. */
let shared: DurableClient | undefined;

/**
 * A Durable Object that calls an MCP server as an agent would: through the one client
 * {@link durableClient} holds for all of its requests. Its alarm ends the session (going away).
 */
export class McpAgent extends DurableObject {
  readonly #instance = crypto.randomUUID();
  readonly #events: string[] = [];
  readonly #clients = new Set<Client>();
  #mcp: DurableClient | undefined;

  /** The held client of the server this object was first given (kept in storage, for an instance that starts with an alarm). */
  async #held(url?: string): Promise<DurableClient> {
    if (url !== undefined && this.#mcp === undefined) await this.ctx.storage.put('url', url);
    const server = url ?? (await this.ctx.storage.get<string>('url'));
    return (this.#mcp ??= durableClient(this.ctx, server!, { onEvent: (e) => this.#events.push(e.type) }));
  }

  async echo(url: string, text: string): Promise<AgentAnswer> {
    const client = await (await this.#held(url)).client();
    this.#clients.add(client);
    const result = await client.callTool({ name: 'echo', arguments: { text } }) as { content: { text?: string }[] };
    return { text: result.content[0]?.text, events: [...this.#events], clients: this.#clients.size, instance: this.#instance };
  }

  /** The same call on the holder in the module global (the first object's): refused to any other object. */
  async echoOnShared(url: string, text: string): Promise<{ text?: string | undefined; error?: string }> {
    try {
      const client = await (shared ??= durableClient(this.ctx, url)).client();
      const result = await client.callTool({ name: 'echo', arguments: { text } }) as { content: { text?: string }[] };
      return { text: result.content[0]?.text };
    } catch (error) {
      return { error: String(error) };
    }
  }

  async end(): Promise<void> {
    await (await this.#held()).end();
  }

  override async alarm(): Promise<void> {
    await this.end();
  }
}
