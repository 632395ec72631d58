import { exchange, type Exchange, type Send } from './server-http.ts';

/** The sessionful revision the check asks for in `initialize`. */
export const LEGACY_REVISION = '2025-11-25';
/** The stateless revision: no `initialize`, no sessions. */
export const MODERN_REVISION = '2026-07-28';

/** A session the check opened: its id (none from a server that keeps no sessions), its revision, when. */
export interface OpenedSession {
  readonly id: string | undefined;
  readonly revision: string;
  readonly openedAtMs: number;
}

/** A JSON-RPC request to send, and the id it carries. */
export interface RpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: number;
  readonly method: string;
  readonly params: Record<string, unknown>;
}

/** What the check calls to do work on a session: a tool the server lists, or `ping`. */
export interface Work {
  readonly method: string;
  readonly params: Record<string, unknown>;
  /** In reasons: `tools/call echo`, `ping`. */
  readonly label: string;
}

/** The check could not get as far as the check it was running: why, with what came back. */
export class ProbeError extends Error {
  override name = 'ProbeError';
  constructor(message: string, readonly reply?: Exchange) {
    super(message);
  }
}

/** An exchange in a reason: `404 {"jsonrpc":…}` (the body cut at 160 characters). */
export function shown(reply: Exchange): string {
  const body = reply.text.replace(/\s+/g, ' ').trim();
  return `${reply.status}${body ? ` ${body.length > 160 ? `${body.slice(0, 160)}…` : body}` : ' (no body)'}`;
}

/** The answer to request `id` among what came back, if there is one. */
export function answerTo(reply: Exchange, id: number): Record<string, unknown> | undefined {
  return reply.messages.find((m) => m.id === id && ('result' in m || 'error' in m));
}

/** Headers naming a session: its id, and its revision (except 2025-03-26, which defines no such header). */
export function sessionHeaders(session: Pick<OpenedSession, 'id' | 'revision'>): Record<string, string> {
  return {
    ...(session.id === undefined ? {} : { 'mcp-session-id': session.id }),
    ...(session.revision === '2025-03-26' ? {} : { 'mcp-protocol-version': session.revision }),
  };
}

/**
 * Talks MCP to the server under check over raw HTTP, so that each check sees exactly what went
 * over the wire: `initialize` and sessions, requests on a session, the work call, the 2026-07-28
 * request envelope. Every exchange is capped at `capMs`.
 *
 * @example
 * const talk = new McpTalk('http://127.0.0.1:3000/mcp', 10_000);
 * const session = await talk.open();
 * const reply = await talk.request('ping', {}, session);
 */
export class McpTalk {
  #nextId = 1;
  /** The work call, once {@link McpTalk.pickWork} chose it. */
  work: Work = { method: 'ping', params: {}, label: 'ping' };

  /** `ask`: the revision asked for in `initialize` (default {@link LEGACY_REVISION}). */
  constructor(readonly url: string, readonly capMs: number, readonly ask: string = LEGACY_REVISION) {}

  message(method: string, params: Record<string, unknown> = {}): RpcRequest {
    return { jsonrpc: '2.0', id: this.#nextId++, method, params };
  }

  send(send: Send): Promise<Exchange> {
    return exchange(this.url, send, this.capMs);
  }

  /** `initialize` without a session id, asking for the revision {@link McpTalk.ask}. */
  initialize(headers: Record<string, string> = {}): Promise<Exchange & { readonly request: RpcRequest }> {
    const request = this.message('initialize', {
      protocolVersion: this.ask, capabilities: {}, clientInfo: { name: 'mcp-chaos-check', version: '0.0.0' },
    });
    return this.send({ method: 'POST', body: request, headers }).then((reply) => ({ ...reply, request }));
  }

  /**
   * Opens a session: `initialize`, then `notifications/initialized` on it. Throws a
   * {@link ProbeError} with what came back when the server does not open one.
   */
  async open(): Promise<OpenedSession> {
    const openedAtMs = Date.now();
    const reply = await this.initialize();
    const result = answerTo(reply, reply.request.id)?.result as { protocolVersion?: unknown } | undefined;
    if (reply.status !== 200 || typeof result?.protocolVersion !== 'string') throw new ProbeError(`initialize was answered ${shown(reply)}`, reply);
    const session = { id: reply.headers.get('mcp-session-id') ?? undefined, revision: result.protocolVersion, openedAtMs };
    const initialized = await this.send({ method: 'POST', body: { jsonrpc: '2.0', method: 'notifications/initialized' }, headers: sessionHeaders(session) });
    if (initialized.status >= 300) throw new ProbeError(`notifications/initialized was answered ${shown(initialized)}`);
    return session;
  }

  /** One request on a session (or on none), with extra headers. */
  async request(method: string, params: Record<string, unknown>, session?: Pick<OpenedSession, 'id' | 'revision'>, headers: Record<string, string> = {}) {
    const request = this.message(method, params);
    const reply = await this.send({ method: 'POST', body: request, headers: { ...(session ? sessionHeaders(session) : {}), ...headers } });
    return { ...reply, request, answer: answerTo(reply, request.id) };
  }

  /** The work call on a session: answered when it came back 200 with a result for its id. */
  async doWork(session: Pick<OpenedSession, 'id' | 'revision'>) {
    const reply = await this.request(this.work.method, this.work.params, session);
    return { ...reply, answered: reply.status === 200 && reply.answer !== undefined && 'result' in reply.answer };
  }

  /** Chooses the work call from the session's `tools/list`: {@link pickTool}, or `ping` when none fits. */
  async pickWork(session: OpenedSession): Promise<void> {
    const reply = await this.request('tools/list', {}, session);
    const tools = (reply.answer?.result as { tools?: unknown } | undefined)?.tools;
    const tool = Array.isArray(tools) ? pickTool(tools) : undefined;
    if (tool) this.work = { method: 'tools/call', params: { name: tool.name, arguments: tool.arguments }, label: `tools/call ${tool.name}` };
  }

  /** A 2026-07-28 request: the `_meta` envelope and the `MCP-Protocol-Version` / `Mcp-Method` / `Mcp-Name` headers. */
  async modern(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
    const request = this.message(method, {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'mcp-chaos-check', version: '0.0.0' },
      },
    });
    const name = params.name ?? params.uri;
    const reply = await this.send({
      method: 'POST', body: request,
      headers: { 'mcp-protocol-version': MODERN_REVISION, 'mcp-method': method, ...(typeof name === 'string' ? { 'mcp-name': name } : {}), ...headers },
    });
    return { ...reply, request, answer: answerTo(reply, request.id) };
  }
}

interface ToolDescription {
  readonly name?: unknown;
  readonly inputSchema?: { readonly properties?: Record<string, { readonly type?: unknown }>; readonly required?: unknown };
}

/**
 * The tool the check calls for work, from a `tools/list` result: `echo` when it takes a string
 * `text`, else the first tool whose required arguments are all strings (given `"mcp-chaos check"`)
 * or that requires none. `undefined` when no tool fits (the check then uses `ping`).
 *
 * @example
 * pickTool([{ name: 'echo', inputSchema: { properties: { text: { type: 'string' } }, required: ['text'] } }]);
 * // { name: 'echo', arguments: { text: 'mcp-chaos check' } }
 */
export function pickTool(tools: readonly unknown[]): { name: string; arguments: Record<string, string> } | undefined {
  const fits = (tool: ToolDescription) => {
    if (typeof tool.name !== 'string') return undefined;
    const required = Array.isArray(tool.inputSchema?.required) ? (tool.inputSchema.required as unknown[]) : [];
    const properties = tool.inputSchema?.properties ?? {};
    if (!required.every((key) => typeof key === 'string' && properties[key]?.type === 'string')) return undefined;
    return { name: tool.name, arguments: Object.fromEntries(required.map((key) => [key as string, 'mcp-chaos check'])) };
  };
  const described = tools.filter((t): t is ToolDescription => typeof t === 'object' && t !== null);
  const echo = described.find((t) => t.name === 'echo' && t.inputSchema?.properties?.text?.type === 'string');
  if (echo) return { name: 'echo', arguments: { text: 'mcp-chaos check' } };
  for (const tool of described) {
    const fit = fits(tool);
    if (fit) return fit;
  }
  return undefined;
}
