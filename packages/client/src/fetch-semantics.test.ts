import { getEventListeners } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import { afterEach, describe, expect, it } from 'vitest';
import { createResilientFetch } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';

let chaos: ChaosServer | undefined;
const servers: { stop(): Promise<void> }[] = [];
afterEach(() => stopAll([], [...servers.splice(0), chaos]).then(() => (chaos = undefined)));

/** A plain HTTP server on 127.0.0.1 that answers every request with `answer`, counting them. */
async function plainServer(answer: (method: string, path: string) => { status: number; headers?: Record<string, string>; body?: string }) {
  let received = 0;
  const server: Server = createServer((req, res) => {
    received += 1;
    req.resume();
    req.on('end', () => {
      const { status, headers = {}, body = '' } = answer(req.method!, req.url!);
      res.writeHead(status, headers).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const handle = {
    url, received: () => received,
    stop: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
  servers.push(handle);
  return handle;
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } },
});
const result = async (response: Response) => {
  const text = await response.text();
  return JSON.parse(text.includes('data: ') ? text.split('data: ')[1]!.split('\n')[0]! : text) as { result?: { protocolVersion?: string } };
};

describe('the engine is a fetch: a Request as input', () => {
  it('takes method, headers and body from the Request when init gives none: a POSTed initialize goes out as a POST', async () => {
    chaos = await startChaosServer();
    const fetch = createResilientFetch();
    const response = await fetch(new Request(chaos.url, { method: 'POST', headers: HEADERS, body: INITIALIZE }));
    expect(response.status).toBe(200);
    expect((await result(response)).result?.protocolVersion).toBe('2025-11-25');
    const sessionId = response.headers.get('mcp-session-id')!;
    // The session was learned: after an eviction, a call given as a Request is recovered.
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    const call = new Request(chaos.url, {
      method: 'POST', headers: { ...HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect((await fetch(call)).status).toBe(200);
    expect(chaos.state().log.filter((e) => e.rpcMethod === 'initialize')).toHaveLength(2);
    await fetch.close();
  });
});

describe('the engine is a fetch: the response keeps url and redirected', () => {
  it('after a followed redirect, MCP or not, the response says where it came from', async () => {
    chaos = await startChaosServer();
    const target = new URL(chaos.url);
    const redirector = await plainServer(() => ({ status: 307, headers: { location: target.href } }));
    const fetch = createResilientFetch();
    const initialized = await fetch(`${redirector.url}${target.pathname}`, { method: 'POST', headers: HEADERS, body: INITIALIZE });
    expect(initialized.status).toBe(200);
    expect({ url: initialized.url, redirected: initialized.redirected }).toEqual({ url: target.href, redirected: true });
    const plain = await fetch(`${redirector.url}/page`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hello":1}' });
    expect({ url: plain.url, redirected: plain.redirected }).toEqual({ url: target.href, redirected: true });
    const direct = await fetch(chaos.url, { method: 'POST', headers: HEADERS, body: INITIALIZE });
    expect({ url: direct.url, redirected: direct.redirected }).toEqual({ url: target.href, redirected: false });
    await fetch.close();
  });
});

describe('the engine is a fetch: traffic that is not MCP passes through untouched', () => {
  it('a POST whose body is not JSON-RPC, answered 500, 503 or 429, is handed back as it is, sent once', async () => {
    let status = 500;
    const server = await plainServer(() => ({ status, headers: { 'content-type': 'text/plain', 'retry-after': '0' }, body: 'nope' }));
    const fetch = createResilientFetch({ backoff: { initialMs: 1, maxMs: 5 } });
    for (status of [500, 503, 429]) {
      const before = server.received();
      const response = await fetch(`${server.url}/api`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hello":1}' });
      expect({ status: response.status, text: await response.text(), sent: server.received() - before }).toEqual({ status, text: 'nope', sent: 1 });
    }
    await fetch.close();
  });

  it('a request to a URL no client initialized (a GET, a JSON-RPC POST of another API) is sent once, its answer as it is', async () => {
    const server = await plainServer(() => ({ status: 503, headers: { 'content-type': 'text/plain', 'retry-after': '0' }, body: 'busy' }));
    const fetch = createResilientFetch({ backoff: { initialMs: 1, maxMs: 5 } });
    const page = await fetch(`${server.url}/page`);
    expect({ status: page.status, text: await page.text(), sent: server.received() }).toEqual({ status: 503, text: 'busy', sent: 1 });
    const rpc = await fetch(`${server.url}/rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}' });
    expect({ status: rpc.status, sent: server.received() }).toEqual({ status: 503, sent: 2 });
    await fetch.close();
  });
});

describe('the engine is a fetch: the caller\'s signal', () => {
  const call = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: `c${id}` } } });
  const initialized = async (fetch: typeof globalThis.fetch, url: string, signal: AbortSignal) => {
    const opened = await fetch(url, { method: 'POST', headers: HEADERS, body: INITIALIZE, signal });
    await opened.text();
    return { ...HEADERS, 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
  };

  it('one signal for every request, as the SDK gives it: no call leaves anything on it, JSON or SSE answered', async () => {
    for (const jsonResponses of [true, false]) {
      chaos = await startChaosServer({ jsonResponses });
      const fetch = createResilientFetch();
      const signal = new AbortController().signal;
      const headers = await initialized(fetch, chaos.url, signal);
      const before = getEventListeners(signal, 'abort').length; // the initialize's, Node's own fetch: kept until it is collected
      for (let id = 1; id <= 20; id++) {
        const answer = await result(await fetch(chaos.url, { method: 'POST', headers, body: call(id), signal }));
        expect(answer).toMatchObject({ result: { content: [{ text: `c${id}` }] } });
      }
      expect(getEventListeners(signal, 'abort').length).toBe(before);
      await fetch.close();
      await chaos.stop();
      chaos = undefined;
    }
  });

  it('one signal for every request through session losses: nothing stays on it after each recovered call', async () => {
    chaos = await startChaosServer({ jsonResponses: true });
    const fetch = createResilientFetch();
    const signal = new AbortController().signal;
    const headers = await initialized(fetch, chaos.url, signal);
    const before = getEventListeners(signal, 'abort').length;
    for (let id = 1; id <= 10; id++) {
      await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
      const answer = await result(await fetch(chaos.url, { method: 'POST', headers, body: call(id), signal }));
      expect(answer).toMatchObject({ result: { content: [{ text: `c${id}` }] } });
    }
    expect(getEventListeners(signal, 'abort').length).toBe(before);
    await fetch.close();
  });

  it('still ends calls on the wire when the caller aborts: twenty in flight, one listener on its signal, each fetch rejects with the reason', async () => {
    let held = 0;
    const silent = createServer((req) => { held++; req.resume(); }); // takes the calls, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    servers.push({ stop: () => new Promise<void>((resolve) => (silent.closeAllConnections(), silent.close(() => resolve()))) });
    const fetch = createResilientFetch();
    const controller = new AbortController();
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
    const headers = { ...HEADERS, 'mcp-protocol-version': '2025-11-25' };
    const pending = Array.from({ length: 20 }, (_, i) => fetch(url, { method: 'POST', headers, body: call(i + 1), signal: controller.signal }));
    await expect.poll(() => held).toBe(20);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1); // Node warns past 10
    const reason = new Error('the caller gave up');
    controller.abort(reason);
    for (const call of pending) await expect(call).rejects.toBe(reason);
    await fetch.close();
  });

  it('a signal of its own for each call (a timeout, AbortSignal.any): nothing of the engine stays on it once the call is over, JSON or SSE answered', async () => {
    for (const jsonResponses of [true, false]) {
      chaos = await startChaosServer({ jsonResponses });
      const fetch = createResilientFetch();
      const headers = await initialized(fetch, chaos.url, new AbortController().signal);
      for (let id = 1; id <= 5; id++) {
        const signals = [AbortSignal.timeout(600_000), AbortSignal.any([new AbortController().signal])];
        for (const signal of signals) {
          expect(await result(await fetch(chaos.url, { method: 'POST', headers, body: call(id), signal }))).toMatchObject({ result: { content: [{ text: `c${id}` }] } });
          // Listened to, Node would keep such a signal (and all it holds) alive until it fires.
          await expect.poll(() => getEventListeners(signal, 'abort').length).toBe(0);
        }
      }
      await fetch.close();
      await chaos.stop();
      chaos = undefined;
    }
  });

  it('a body its reader cancels while the engine waits to re-issue the call: the call is given up, never sent again, and its stream not left open', async () => {
    let posts = 0;
    const open: ServerResponse[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () => {
        posts += 1;
        const { id } = JSON.parse(body) as { id: string | number };
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        // The first send: a notification, then the stream ends before the answer (the engine re-issues the call).
        if (posts === 1) return res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } })}\n\n`);
        res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } })}\n\n`);
        open.push(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({ stop: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const events: string[] = [];
    let cancel: (() => Promise<void>) | undefined;
    const fetch = createResilientFetch({
      replay: 'safe', tools: { readOnlyTools: ['echo'] }, sleep: (_ms, signal) => (signal?.aborted ? Promise.reject(signal.reason) : Promise.resolve()),
      onEvent: (event) => (events.push(event.type), event.type === 'reissued' ? void cancel?.() : undefined),
    });
    const caller = new AbortController();
    const response = await fetch(url, { method: 'POST', headers: { ...HEADERS, 'mcp-protocol-version': '2025-11-25' }, body: call(7), signal: caller.signal });
    const reader = response.body!.getReader();
    cancel = () => reader.cancel(new Error('the reader is done'));
    await reader.read().catch(() => undefined);
    await expect.poll(() => events).toContain('gave-up');
    expect(events).toEqual(['reissued', 'gave-up']);
    expect(posts).toBe(1);
    expect(open).toEqual([]);
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
    await fetch.close();
  });

  it('an SSE answer whose server keeps the stream open after it: the caller\'s abort still closes that stream', async () => {
    let closed = false;
    const open = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () => {
        const { id } = JSON.parse(body) as { id: number };
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } })}\n\n`); // and never ends
        res.on('close', () => (closed = true));
      });
    });
    await new Promise<void>((resolve) => open.listen(0, '127.0.0.1', resolve));
    servers.push({ stop: () => new Promise<void>((resolve) => (open.closeAllConnections(), open.close(() => resolve()))) });
    const fetch = createResilientFetch();
    const controller = new AbortController();
    const url = `http://127.0.0.1:${(open.address() as AddressInfo).port}/mcp`;
    const response = await fetch(url, { method: 'POST', headers: { ...HEADERS, 'mcp-protocol-version': '2025-11-25' }, body: call(7), signal: controller.signal });
    expect(await response.json()).toMatchObject({ id: 7, result: { content: [] } }); // handed on as JSON: the call is over
    controller.abort(new Error('the client closed'));
    await expect.poll(() => closed).toBe(true);
    await fetch.close();
  });
});
