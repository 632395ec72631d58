import { createResilientFetch } from '@mcp-resilience/client';
import { createCountingFetch, type Timeline, type WireRecord } from './counting-fetch.ts';
import type { TimedEvent, ToolCall } from './sdk-clients.ts';

const REVISION = '2025-11-25';

/** A client without an SDK: JSON-RPC POSTs through the engine, and no standalone GET stream. */
export interface RawEngineClient {
  readonly wire: WireRecord[];
  readonly events: TimedEvent[];
  /** The session id as this client knows it: the one `initialize` gave it (the engine swaps it when it must). */
  readonly sessionId: string | undefined;
  call(tool: ToolCall): Promise<string>;
}

function messagesOf(text: string): Record<string, unknown>[] {
  const lines = text.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).filter((l) => l !== '');
  return (lines.length > 0 ? lines : [text]).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/**
 * Connects through the engine with plain JSON-RPC POSTs, as a client that never opens the
 * standalone GET stream does (a script, a serverless function): `initialize`,
 * `notifications/initialized`, then `tools/call`s carrying the session id it was given.
 *
 * @example
 * const raw = await connectRawEngineClient(url, createTimeline(), { idleBudgetMs: 100 });
 * await raw.call({ name: 'echo', arguments: { message: 'hi' } }); // 'Echo: hi'
 */
export async function connectRawEngineClient(url: string, timeline: Timeline, engineOptions: Parameters<typeof createResilientFetch>[0] = {}): Promise<RawEngineClient> {
  const counting = createCountingFetch(timeline);
  const events: TimedEvent[] = [];
  const fetch = createResilientFetch({ fetch: counting.fetch, onEvent: (event) => events.push({ at: timeline.tick(), event }), backoff: { initialMs: 10, maxMs: 50 }, ...engineOptions });
  let sessionId: string | undefined;
  let nextId = 0;
  const post = async (message: Record<string, unknown>) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    if (sessionId !== undefined) Object.assign(headers, { 'mcp-session-id': sessionId, 'mcp-protocol-version': REVISION });
    return fetch(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', ...message }) });
  };
  const request = async (method: string, params: unknown) => {
    const id = nextId++;
    const response = await post({ id, method, params });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} answered ${response.status}: ${text}`);
    const answer = messagesOf(text).find((m) => m.id === id);
    if (!answer || 'error' in answer) throw new Error(`${method}: ${text}`);
    return { response, result: answer.result as Record<string, unknown> };
  };
  const init = await request('initialize', { protocolVersion: REVISION, capabilities: {}, clientInfo: { name: 'raw-engine', version: '0' } });
  sessionId = init.response.headers.get('mcp-session-id') ?? undefined;
  await (await post({ method: 'notifications/initialized' })).text();
  return {
    wire: counting.records,
    events,
    get sessionId() {
      return sessionId;
    },
    async call(tool) {
      const { result } = await request('tools/call', tool);
      const text = (result.content as { text?: string }[] | undefined)?.[0]?.text;
      if (text === undefined) throw new Error(`no text in ${JSON.stringify(result)}`);
      return text;
    },
  };
}
