import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from './backend.ts';
import { REAL_CLOCK } from './chaos-clock.ts';
import { startChaosServer, type ChaosServer, type ChaosState } from './chaos-server.ts';
import { ExecutionLedger } from './ledger.ts';
import { createModernBackend } from './modern-backend.ts';
import { ChangeableResource, RESOURCE_URI } from './resource.ts';
import { TaskJobs } from './task-jobs.ts';
import { TOOL_ANNOTATIONS } from './tools.ts';

const VERSION = '2026-07-28';
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

type Json = Record<string, unknown>;
interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly messages: Json[];
}

const ledger = new ExecutionLedger();
const resource = new ChangeableResource();
let backend: Backend;
let server: Server;
let url: string;
const seenSessionIds: (string | null)[] = [];
let nextId = 1;

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The `_meta` a 2026-07-28 request carries: protocol version, client capabilities, client info. */
function envelope(extra: Json = {}): Json {
  return {
    [PROTOCOL_VERSION_KEY]: VERSION,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'modern-backend-test', version: '0.0.0' },
    ...extra,
  };
}

function request(method: string, params: Json = {}, meta: Json = {}): Json {
  return { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: envelope(meta) } };
}

/** The headers the revision requires: version, method, and the name for tools/call and resources/read. */
function headersFor(message: Json, overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const params = (message['params'] ?? {}) as Json;
  const name = params['name'] ?? params['uri'];
  const all: Record<string, string | undefined> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': message['method'] as string,
    ...(typeof name === 'string' && { 'mcp-name': name }),
    ...overrides,
  };
  return Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

function parseSse(text: string): Json[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((event) => event.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\n'))
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data) as Json);
}

async function toReply(response: Response): Promise<Reply> {
  seenSessionIds.push(response.headers.get('mcp-session-id'));
  const text = await response.text();
  const sse = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  const messages = sse ? parseSse(text) : text === '' ? [] : [JSON.parse(text) as Json];
  return { status: response.status, headers: response.headers, messages };
}

async function post(message: Json, headers: Record<string, string> = headersFor(message)): Promise<Reply> {
  return toReply(await fetch(url, { method: 'POST', headers, body: JSON.stringify(message) }));
}

/** The final JSON-RPC response of a reply (after any notifications). */
function final(reply: Reply): Json {
  const last = reply.messages.at(-1);
  if (last === undefined || !('id' in last)) throw new Error(`no response in ${JSON.stringify(reply.messages)}`);
  return last;
}

function resultOf(reply: Reply): Json {
  const response = final(reply);
  if (!('result' in response)) throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  return response['result'] as Json;
}

function errorOf(reply: Reply): { code: number; message: string; data?: Json } {
  const response = final(reply);
  if (!('error' in response)) throw new Error(`expected an error, got ${JSON.stringify(response)}`);
  return response['error'] as { code: number; message: string; data?: Json };
}

function textOf(result: Json): string {
  const content = result['content'] as { type: string; text: string }[];
  return content.map((block) => block.text).join('');
}

async function callTool(name: string, args: Json, meta: Json = {}): Promise<Reply> {
  return post(request('tools/call', { name, arguments: args }, meta));
}

beforeAll(async () => {
  backend = createModernBackend({ ledger, resource, tasks: new TaskJobs(), clock: REAL_CLOCK });
  server = createServer((req, res) => {
    void readBody(req).then((body) => backend.handle(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await backend.close();
  server.closeAllConnections();
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

describe('modern backend (2026-07-28)', () => {
  it('is the modern mode', () => {
    expect(backend.mode).toBe('modern');
  });

  it('answers server/discover with its versions and capabilities', async () => {
    const reply = await post(request('server/discover'));
    expect(reply.status).toBe(200);
    const result = resultOf(reply);
    expect(result['supportedVersions']).toEqual([VERSION]);
    expect(result['capabilities']).toMatchObject({ tools: {}, resources: { subscribe: true }, logging: {} });
  });

  it('lists the five tools with their annotations', async () => {
    const tools = resultOf(await post(request('tools/list')))['tools'] as { name: string; annotations: Json }[];
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
    expect(byName).toEqual(TOOL_ANNOTATIONS);
  });

  it('calls echo', async () => {
    const reply = await callTool('echo', { text: 'hello' });
    expect(reply.status).toBe(200);
    expect(textOf(resultOf(reply))).toBe('hello');
  });

  it('calls add', async () => {
    expect(textOf(resultOf(await callTool('add', { a: 2, b: 3 })))).toBe('5');
  });

  it('counts record twice under one key in the ledger', async () => {
    expect(textOf(resultOf(await callTool('record', { key: 'k-twice' })))).toBe('executions of k-twice: 1');
    expect(textOf(resultOf(await callTool('record', { key: 'k-twice' })))).toBe('executions of k-twice: 2');
    expect(ledger.snapshot()['k-twice']).toBe(2);
  });

  it('calls slow without a progress token as a single JSON response', async () => {
    const reply = await callTool('slow', { ms: 20, steps: 2 });
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(textOf(resultOf(reply))).toBe('slept 20 ms');
  });

  it('streams progress for slow when the request has a progress token', async () => {
    const reply = await callTool('slow', { ms: 60, steps: 3 }, { progressToken: 'p-1' });
    expect(reply.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const progress = reply.messages.filter((message) => message['method'] === 'notifications/progress');
    expect(progress.map((message) => message['params'])).toEqual([
      { progressToken: 'p-1', progress: 1, total: 3 },
      { progressToken: 'p-1', progress: 2, total: 3 },
      { progressToken: 'p-1', progress: 3, total: 3 },
    ]);
    expect(textOf(resultOf(reply))).toBe('slept 60 ms');
  });

  it('sends log messages when the envelope names a log level', async () => {
    const reply = await callTool('echo', { text: 'logged' }, { 'io.modelcontextprotocol/logLevel': 'info' });
    const logs = reply.messages.filter((message) => message['method'] === 'notifications/message');
    expect(logs.map((message) => message['params'])).toEqual([{ level: 'info', data: 'echo: logged', logger: 'mcp-chaos' }]);
    expect(textOf(resultOf(reply))).toBe('logged');
  });

  it('reads chaos://counter with the current text', async () => {
    resource.set('41');
    const contents = resultOf(await post(request('resources/read', { uri: RESOURCE_URI })))['contents'];
    expect(contents).toEqual([{ uri: RESOURCE_URI, mimeType: 'text/plain', text: '41' }]);
  });

  it('publishes counter changes to a subscriptions/listen stream', async () => {
    const abort = new AbortController();
    const message = request('subscriptions/listen', { notifications: { resourceSubscriptions: [RESOURCE_URI] } });
    const response = await fetch(url, { method: 'POST', headers: headersFor(message), body: JSON.stringify(message), signal: abort.signal });
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (needle: string): Promise<void> => {
      while (!text.includes(needle)) {
        const { done, value } = await reader.read();
        if (done) throw new Error(`stream ended before ${needle}: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    await readUntil('notifications/subscriptions/acknowledged');
    resource.set('42');
    await readUntil('notifications/resources/updated');
    abort.abort();
    const updated = parseSse(text).find((event) => event['method'] === 'notifications/resources/updated');
    expect(updated?.['params']).toMatchObject({ uri: RESOURCE_URI });
  });

  it('rejects a header/_meta version mismatch with 400 and -32020', async () => {
    const message = request('tools/list');
    const reply = await post(message, headersFor(message, { 'mcp-protocol-version': '2025-11-25' }));
    expect(reply.status).toBe(400);
    expect(errorOf(reply).code).toBe(-32020);
  });

  it('rejects an unsupported version with 400, -32022 and data.supported', async () => {
    const message = request('tools/list', {}, { [PROTOCOL_VERSION_KEY]: '2099-01-01' });
    const reply = await post(message, headersFor(message, { 'mcp-protocol-version': '2099-01-01' }));
    expect(reply.status).toBe(400);
    const error = errorOf(reply);
    expect(error.code).toBe(-32022);
    expect(error.data).toMatchObject({ supported: [VERSION], requested: '2099-01-01' });
  });

  it('rejects a legacy version in the envelope as unsupported (-32022)', async () => {
    const message = request('tools/list', {}, { [PROTOCOL_VERSION_KEY]: '2025-11-25' });
    const reply = await post(message, headersFor(message, { 'mcp-protocol-version': '2025-11-25' }));
    expect(reply.status).toBe(400);
    expect(errorOf(reply)).toMatchObject({ code: -32022, data: { supported: [VERSION] } });
  });

  it('rejects a request without MCP-Protocol-Version with 400 and -32020', async () => {
    const message = request('tools/list');
    const reply = await post(message, headersFor(message, { 'mcp-protocol-version': undefined }));
    expect(reply.status).toBe(400);
    expect(errorOf(reply).code).toBe(-32020);
  });

  it('rejects missing or wrong Mcp-Method / Mcp-Name headers with 400 and -32020', async () => {
    const noMethod = request('tools/list');
    expect(errorOf(await post(noMethod, headersFor(noMethod, { 'mcp-method': undefined }))).code).toBe(-32020);
    const call = request('tools/call', { name: 'echo', arguments: { text: 'x' } });
    expect(errorOf(await post(call, headersFor(call, { 'mcp-name': undefined }))).code).toBe(-32020);
    const other = request('tools/call', { name: 'echo', arguments: { text: 'x' } });
    const reply = await post(other, headersFor(other, { 'mcp-name': 'add' }));
    expect(reply.status).toBe(400);
    expect(errorOf(reply).code).toBe(-32020);
  });

  it('rejects initialize without an envelope (no legacy serving) with -32022', async () => {
    const message = { jsonrpc: '2.0', id: nextId++, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } } };
    const reply = await post(message, { 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
    expect(reply.status).toBe(400);
    expect(errorOf(reply)).toMatchObject({ code: -32022, data: { supported: [VERSION] } });
  });

  it('answers an unknown method with 404 and -32601', async () => {
    const reply = await post(request('chaos/unknown'));
    expect(reply.status).toBe(404);
    expect(errorOf(reply).code).toBe(-32601);
  });

  it.each(['GET', 'DELETE'])('answers %s with 405', async (method) => {
    const reply = await toReply(await fetch(url, { method, headers: { 'mcp-protocol-version': VERSION, accept: 'text/event-stream' } }));
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('POST');
  });

  it('ignores an Mcp-Session-Id sent by the client', async () => {
    const message = request('tools/call', { name: 'echo', arguments: { text: 'no session' } });
    const reply = await post(message, headersFor(message, { 'mcp-session-id': 'made-up' }));
    expect(reply.status).toBe(200);
    expect(textOf(resultOf(reply))).toBe('no session');
  });

  it('has no session operations: dropSession and dropAll change nothing', async () => {
    await backend.dropSession('anything');
    await backend.dropAll();
    expect(textOf(resultOf(await callTool('echo', { text: 'still here' })))).toBe('still here');
  });

  it('never sent an Mcp-Session-Id header', () => {
    expect(seenSessionIds.length).toBeGreaterThan(15);
    expect(seenSessionIds.every((id) => id === null)).toBe(true);
  });
});

describe('full chaos server in modern mode with @modelcontextprotocol/client@2.4.0', () => {
  let chaos: ChaosServer;
  let client: Client;

  async function chaosState(): Promise<ChaosState> {
    return (await (await fetch(`${chaos.control}/state`)).json()) as ChaosState;
  }

  function sdkTextOf(result: Awaited<ReturnType<Client['callTool']>>): string {
    return (result.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('');
  }

  beforeAll(async () => {
    chaos = await startChaosServer({ mode: 'modern' });
    // The opt-in: without versionNegotiation the client runs the 2025 `initialize` handshake.
    client = new Client({ name: 'modern-sdk-round-trip', version: '0.0.0' }, { versionNegotiation: { mode: { pin: VERSION } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url)));
  });

  afterAll(async () => {
    await client?.close();
    await chaos?.stop();
  });

  it('connects in the 2026-07-28 era with no session anywhere', async () => {
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe(VERSION);
    const state = await chaosState();
    expect(state.mode).toBe('modern');
    expect(state.sessions).toEqual([]);
    expect(state.log.some((entry) => entry.rpcMethod === 'server/discover')).toBe(true);
    expect(state.log.some((entry) => entry.rpcMethod === 'initialize')).toBe(false);
  });

  it('lists echo, add, record and slow', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['add', 'echo', 'job', 'record', 'slow']);
  });

  it('calls echo', async () => {
    expect(sdkTextOf(await client.callTool({ name: 'echo', arguments: { text: 'via the sdk' } }))).toBe('via the sdk');
  });

  it('counts record twice under one key in the ledger', async () => {
    await client.callTool({ name: 'record', arguments: { key: 'sdk-key' } });
    expect(sdkTextOf(await client.callTool({ name: 'record', arguments: { key: 'sdk-key' } }))).toBe('executions of sdk-key: 2');
    expect((await chaosState()).ledger['sdk-key']).toBe(2);
  });

  it('still applies a status fault: one 503, then success', async () => {
    const applied = await fetch(`${chaos.control}/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'status', status: 503, count: 1, retryAfter: '1' }),
    });
    expect(await applied.json()).toEqual({ applied: 1 });
    const error: unknown = await client.callTool({ name: 'echo', arguments: { text: 'faulted' } }).then(
      () => { throw new Error('expected the 503 fault to reject callTool'); },
      (rejection: unknown) => rejection,
    );
    expect(error).toBeInstanceOf(SdkHttpError);
    expect((error as SdkHttpError).status).toBe(503);
    expect((error as SdkHttpError).message).toContain('chaos: status 503');
    expect(sdkTextOf(await client.callTool({ name: 'echo', arguments: { text: 'recovered' } }))).toBe('recovered');
    const state = await chaosState();
    expect(state.log.filter((entry) => entry.fault === 'status 503')).toHaveLength(1);
    expect(state.faults.pendingStatus).toEqual([]);
  });

  it('never saw an Mcp-Session-Id on the wire and registered no session', async () => {
    const state = await chaosState();
    expect(state.sessions).toEqual([]);
    expect(state.log.length).toBeGreaterThan(5);
    for (const entry of state.log) {
      expect(entry).not.toHaveProperty('session');
      expect(entry).not.toHaveProperty('sessionOrdinal');
    }
  });
});
