import { createResilientFetch } from '@mcp-resilience/client';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as z from 'zod/v4';
import { createCountingFetch, type Timeline, type WireRecord } from './counting-fetch.ts';

/** The two official SDK client lines: 1.x `@modelcontextprotocol/sdk`, 2.x `@modelcontextprotocol/client`. */
export type SdkLine = '1.x' | '2.x';

/** An engine event with its place on the timeline the counting fetch writes to. */
export interface TimedEvent {
  readonly at: number;
  readonly event: ResilienceEvent;
}

/** A connected official SDK client, with or without the engine, and what it put on the wire. */
export interface TestClient {
  /** E.g. `1.x + engine`, `2.x plain`. */
  readonly label: string;
  readonly line: SdkLine;
  readonly engine: boolean;
  /** Every request that reached the network (under the engine, when there is one). */
  readonly wire: WireRecord[];
  readonly events: TimedEvent[];
  /** Calls the server's tool and returns the text of its result. */
  call(tool: ToolCall): Promise<string>;
  /** Sends a request of any method (for an unknown one, say); resolves to its result. */
  request(method: string): Promise<unknown>;
  /** `transport.terminateSession()`: the DELETE a client sends when it leaves. */
  terminate(): Promise<void>;
  close(): Promise<void>;
}

/** A tool call and the text the server answers it with. */
export interface ToolCall {
  readonly name: string;
  readonly arguments: Readonly<Record<string, string>>;
}

export interface ClientOptions {
  readonly line: SdkLine;
  /** Wear the engine (`createResilientFetch` over the counting fetch), or go plain. */
  readonly engine: boolean;
  readonly url: string;
  readonly timeline: Timeline;
  /** Pin the 2.x client to this revision (`2026-07-28`); default: the line's own default. */
  readonly pin?: string;
  /** More engine options (an idle budget, say). */
  readonly engineOptions?: Parameters<typeof createResilientFetch>[0];
}

const ANY_RESULT = z.looseObject({});

function textOf(result: unknown): string {
  const content = (result as { content?: { type?: string; text?: string }[] }).content;
  const text = content?.find((c) => c.type === 'text')?.text;
  if (text === undefined) throw new Error(`no text in ${JSON.stringify(result)}`);
  return text;
}

/**
 * Connects an official SDK client (1.x or 2.x) to `url`, its transport given the engine
 * over a counting fetch (or the counting fetch alone, for the plain client), and returns
 * what the tests need of it.
 *
 * @example
 * const client = await connectClient({ line: '1.x', engine: true, url, timeline: createTimeline() });
 * await client.call({ name: 'echo', arguments: { message: 'hi' } });
 * client.wire.filter((r) => r.rpcMethods.includes('initialize')).length; // 1
 */
export async function connectClient(options: ClientOptions): Promise<TestClient> {
  const { line, engine, url, timeline } = options;
  const counting = createCountingFetch(timeline);
  const events: TimedEvent[] = [];
  const fetch = engine
    ? createResilientFetch({
        fetch: counting.fetch,
        onEvent: (event) => events.push({ at: timeline.tick(), event }),
        backoff: { initialMs: 10, maxMs: 50 },
        ...options.engineOptions,
      })
    : counting.fetch;
  const info = { name: `${line}-${engine ? 'engine' : 'plain'}`, version: '0.0.0' };
  const common = { label: `${line} ${engine ? '+ engine' : 'plain'}`, line, engine, wire: counting.records, events };
  if (line === '1.x') {
    const transport = new TransportV1(new URL(url), { fetch });
    const client = new ClientV1(info);
    await client.connect(transport);
    return {
      ...common,
      call: async (tool) => textOf(await client.callTool({ name: tool.name, arguments: { ...tool.arguments } })),
      request: (method) => client.request({ method, params: {} }, ANY_RESULT),
      terminate: () => transport.terminateSession(),
      close: () => client.close(),
    };
  }
  const transport = new TransportV2(new URL(url), { fetch });
  const client = new ClientV2(info, options.pin ? { versionNegotiation: { mode: { pin: options.pin } } } : {});
  await client.connect(transport);
  return {
    ...common,
    call: async (tool) => textOf(await client.callTool({ name: tool.name, arguments: { ...tool.arguments } })),
    request: (method) => client.request({ method, params: {} }, ANY_RESULT),
    terminate: () => transport.terminateSession(),
    close: () => client.close(),
  };
}
