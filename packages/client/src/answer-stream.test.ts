import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createResilientFetch } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';
import { until } from './test-support/until.ts';

/** One gate the test opens: what the server writes after it waits for it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

type Script = (res: ServerResponse, id: number) => Promise<void>;

/**
 * An MCP endpoint on 127.0.0.1 whose `tools/call` answers are written by `script` (its SSE, chunk
 * by chunk); it answers `initialize` with JSON and a session id, and anything else with a 202. It
 * notes which tools/call requests it has received (and the session id each carried), and which answers it has finished.
 */
async function scriptedServer(script: Script, { initializeOverSse = false } = {}) {
  const finished: number[] = [];
  const received: number[] = [];
  const sessions: (string | undefined)[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(body || '{}') as { id?: number; method?: string };
      if (message.method === 'initialize') {
        const answer = JSON.stringify({
          jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 's', version: '0' } },
        });
        return void (initializeOverSse
          ? res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'S1' }).end(`${priming(0)}event: message\ndata: ${answer}\n\n`)
          : res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'S1' }).end(answer));
      }
      if (message.method !== 'tools/call') return void res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-served-by': 'scripted' });
      res.flushHeaders();
      res.on('finish', () => finished.push(message.id!));
      received.push(message.id!);
      sessions.push(req.headers['mcp-session-id'] as string | undefined);
      void script(res, message.id!).then(() => res.end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const handle = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, finished, received, sessions,
    stop: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
  servers.push(handle);
  return handle;
}

const servers: { stop(): Promise<void> }[] = [];
let client: Client | undefined;
afterEach(() => stopAll([client], servers.splice(0)).then(() => (client = undefined)));

const answer = (id: number, text = 'done') => `event: message\nid: e${id}\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } })}\n\n`;
const priming = (id: number) => `id: p${id}\ndata: \n\n`;
const progress = (id: number) => `event: message\nid: n${id}\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: 1 } })}\n\n`;

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

/** The engine, a session opened on `url`, and a tools/call sent on it with id `id`. */
async function engineOn(url: string) {
  // The answers as they came from the server: read to their end or not.
  const drained: boolean[] = [];
  const fetch = createResilientFetch({
    fetch: async (input, init) => {
      const response = await globalThis.fetch(input, init);
      if (!response.body) return response;
      const at = drained.push(false) - 1;
      const body = response.body.pipeThrough(new TransformStream({ flush: () => void (drained[at] = true) }));
      return new Response(body, response);
    },
  });
  await (await fetch(url, {
    method: 'POST', headers: HEADERS,
    body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } } }),
  })).text();
  const call = (id: number, signal?: AbortSignal) => fetch(url, {
    method: 'POST', headers: { ...HEADERS, 'mcp-session-id': 'S1' }, ...(signal ? { signal } : {}),
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'work', arguments: {} } }),
  });
  return { fetch, call, drained };
}

describe('an answer over SSE', () => {
  it('that is its stream\'s one message reaches the caller as JSON as soon as it is read, before its stream ends; the stream is read to its end', async () => {
    const end = gate();
    const server = await scriptedServer(async (res, id) => {
      res.write(priming(id) + answer(id));
      await end.opened;
    });
    const { fetch, call, drained } = await engineOn(server.url);
    const response = await call(1);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-served-by')).toBe('scripted'); // the server's other headers, as they came
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'done' }] } });
    expect(server.finished).toEqual([]); // handed on while the server still held its stream open
    expect(drained.at(-1)).toBe(false);
    end.open();
    // Nobody reads the rest but the engine: it reads it to its end (which frees the connection for the next request).
    await until(() => drained.at(-1) === true, 'the stream read to its end');
    // The server's 'finish' and the client's read of its last chunk are two sockets' events, in either order.
    await until(() => server.finished.includes(1), 'the server\'s end of the stream');
    await fetch.close();
  });

  it('that comes after a priming event of its own, in a later chunk, is JSON too', async () => {
    const answerNow = gate();
    const server = await scriptedServer(async (res, id) => {
      res.write(priming(id));
      await answerNow.opened;
      res.write(answer(id));
    });
    const { fetch, call } = await engineOn(server.url);
    const responded = call(1);
    answerNow.open();
    const response = await responded;
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'done' }] } }));
    await fetch.close();
  });

  it('after a notification stays a stream: both reach the caller as they came, without the server\'s event ids', async () => {
    const server = await scriptedServer(async (res, id) => {
      res.write(priming(id) + progress(id));
      res.write(answer(id));
    });
    const { fetch, call } = await engineOn(server.url);
    const response = await call(1);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const text = await response.text();
    expect(text.match(/^data: .*$/gm)!.map((line) => (JSON.parse(line.slice(6)) as { method?: string; id?: number }).method ?? `answer ${(JSON.parse(line.slice(6)) as { id: number }).id}`))
      .toEqual(['notifications/progress', 'answer 1']);
    expect(text).not.toMatch(/^id:/m);
    await fetch.close();
  });

  it('reaches the SDK either way: a progress notification before the answer is told, and both calls are answered', async () => {
    const server = await scriptedServer(async (res, id) => {
      res.write(priming(id) + (id % 2 ? progress(id) : '') + answer(id, `call ${id}`));
    });
    client = new Client({ name: 't', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: createResilientFetch() }));
    const told: number[] = [];
    const first = await client.callTool({ name: 'work', arguments: {} }, undefined, { onprogress: (p) => void told.push(p.progress) });
    const second = await client.callTool({ name: 'work', arguments: {} });
    expect([first.content, second.content]).toEqual([[{ type: 'text', text: 'call 1' }], [{ type: 'text', text: 'call 2' }]]);
    expect(told).toEqual([1]);
  });

  it('that the server sent under its id as a string reaches the caller under the id the caller sent', async () => {
    const server = await scriptedServer(async (res, id) => {
      res.write(`${priming(id)}event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: String(id), result: { content: [] } })}\n\n`);
    });
    const { fetch, call } = await engineOn(server.url);
    const response = await call(7);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 7, result: { content: [] } });
    await fetch.close();
  });

  it('not yet begun when the caller aborts: the call ends with the abort, nothing hangs', async () => {
    const server = await scriptedServer(async (res, id) => {
      res.write(priming(id));
      await new Promise<void>((resolve) => res.on('close', resolve)); // no message, until the client goes
    });
    const { fetch, call } = await engineOn(server.url);
    const controller = new AbortController();
    const outcome = call(1, controller.signal).then((response) => response.text()).then(() => 'read', (error: unknown) => (error as Error).name);
    await until(() => server.received.includes(1), 'the call at the server');
    controller.abort();
    expect(await outcome).toBe('AbortError');
    await fetch.close();
  });

  it('to the initialize reaches the SDK as JSON with the session id: the client goes on on that session', async () => {
    const server = await scriptedServer(async (res, id) => void res.write(priming(id) + answer(id, 'on S1')), { initializeOverSse: true });
    client = new Client({ name: 't', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: createResilientFetch() }));
    await expect(client.callTool({ name: 'work', arguments: {} })).resolves.toMatchObject({ content: [{ text: 'on S1' }] });
    expect(server.sessions).toEqual(['S1']); // the id read off the initialize's answer, handed on as JSON
  });
});

