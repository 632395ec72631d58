/**
 * A raw Streamable HTTP client for the chaos server's tests: plain fetch, no SDK, so each
 * test sees exactly what goes over the wire.
 */
import type { ChaosServer, ChaosState } from '../chaos-server.ts';
import type { Fault } from '../faults.ts';

export const REVISION = '2025-11-25';

export interface RpcReply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** JSON-RPC messages from a JSON body or from the `data:` lines of an SSE body. */
  readonly messages: Record<string, unknown>[];
  /** The `id:` lines of an SSE body. */
  readonly eventIds: string[];
}

export function messagesOf(text: string, contentType: string | null): { messages: Record<string, unknown>[]; eventIds: string[] } {
  if (contentType?.includes('text/event-stream')) {
    const messages: Record<string, unknown>[] = [];
    const eventIds: string[] = [];
    for (const block of text.split(/\r?\n\r?\n/)) {
      const lines = block.split(/\r?\n/);
      const id = lines.find((l) => l.startsWith('id:'));
      if (id) eventIds.push(id.slice(3).trim());
      const data = lines.filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
      if (data !== '') messages.push(JSON.parse(data) as Record<string, unknown>);
    }
    return { messages, eventIds };
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return { messages: (Array.isArray(parsed) ? parsed : [parsed]) as Record<string, unknown>[], eventIds: [] };
  } catch {
    return { messages: [], eventIds: [] };
  }
}

export async function post(url: string, message: unknown, headers: Record<string, string> = {}): Promise<RpcReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, ...messagesOf(text, response.headers.get('content-type')) };
}

let nextId = 1;

/** `initialize` + `notifications/initialized`; returns the new session id. */
export async function openSession(url: string): Promise<string> {
  const reply = await post(url, {
    jsonrpc: '2.0', id: nextId++, method: 'initialize',
    params: { protocolVersion: REVISION, capabilities: {}, clientInfo: { name: 'raw-test', version: '0' } },
  });
  const sessionId = reply.headers.get('mcp-session-id');
  if (reply.status !== 200 || !sessionId) throw new Error(`initialize failed: ${reply.status} ${reply.text}`);
  const sessionHeaders = { 'mcp-session-id': sessionId, 'mcp-protocol-version': REVISION };
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionHeaders);
  return sessionId;
}

/** One request on a session. */
export function call(url: string, sessionId: string, method: string, params: Record<string, unknown> = {}): Promise<RpcReply> {
  return post(url, { jsonrpc: '2.0', id: nextId++, method, params }, { 'mcp-session-id': sessionId, 'mcp-protocol-version': REVISION });
}

export function callTool(url: string, sessionId: string, name: string, args: Record<string, unknown>): Promise<RpcReply> {
  return call(url, sessionId, 'tools/call', { name, arguments: args });
}

/** The text of a tools/call result. */
export function resultText(reply: RpcReply): string | undefined {
  const message = reply.messages.find((m) => 'result' in m) as { result?: { content?: { text?: string }[] } } | undefined;
  return message?.result?.content?.[0]?.text;
}

export async function inject(chaos: ChaosServer, faults: Fault | Fault[]): Promise<Response> {
  return fetch(`${chaos.control}/faults`, { method: 'POST', body: JSON.stringify(faults) });
}

export async function stateOf(chaos: ChaosServer): Promise<ChaosState> {
  return (await (await fetch(`${chaos.control}/state`)).json()) as ChaosState;
}

/**
 * Waits until `done` holds (checked every 5 ms): for what real sockets deliver when they deliver
 * it, never for time to pass. It holds within milliseconds; not within 10 s is a hang, and the
 * error says so and names `what` was waited for.
 *
 * @example
 * await until('the slow call at work', () => chaos.state().sessions.some((s) => s.inFlight === 1));
 */
export async function until(what: string, done: () => boolean): Promise<void> {
  for (const guard = Date.now() + 10_000; !done() && Date.now() < guard;) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!done()) throw new Error(`hung: ${what} never came within 10 s`);
}
