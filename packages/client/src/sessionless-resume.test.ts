import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import { afterEach, describe, expect, it } from 'vitest';
import { createResilientFetch } from './resilient-fetch.ts';
import { startHeaderLog, type HeaderLog } from './test-support/header-log.ts';
import { stopAll } from './test-support/stop-all.ts';

let chaos: ChaosServer | undefined;
let log: HeaderLog | undefined;
const closing: { close(): Promise<unknown> }[] = [];
afterEach(() => stopAll(closing.splice(0), [log, chaos]).then(() => (chaos = log = undefined)));

const REVISION = '2025-06-18';
const post = (id: number, method: string, params: Record<string, unknown>, authorization: string): RequestInit => ({
  method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization, ...(method === 'initialize' ? {} : { 'mcp-protocol-version': REVISION }) },
});
const sse = (...events: string[]) => ({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: events.join('') });

describe('a shared fetch on a server that gives no session id (2025-06-18, stateless): a stream resumed for one client', () => {
  it('carries that client\'s own token, never the token of the client that initialized last', async () => {
    chaos = await startChaosServer();
    log = await startHeaderLog(chaos.url);
    // The server answers without sessions: no Mcp-Session-Id on the initialize; client A's call streams one event, then the stream breaks.
    log.intercept((r) => {
      if (r.rpcMethod === 'initialize') {
        return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: r.rpcId, result: { protocolVersion: REVISION, capabilities: { tools: {} }, serverInfo: { name: 'stateless', version: '1' } } }) };
      }
      if (r.rpcMethod === 'tools/call') return sse('id: e1\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"working"}}\n\n');
      if (r.httpMethod === 'GET') return sse('id: e2\ndata: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"done"}]}}\n\n');
      return undefined;
    });
    const fetch = createResilientFetch({ sleep: async () => {} });
    closing.push(fetch);
    const url = log.url;
    // Client A, then client B, initialize through the one fetch.
    await (await fetch(url, post(0, 'initialize', { protocolVersion: REVISION, capabilities: {}, clientInfo: { name: 'a', version: '1' } }, 'Bearer alice'))).text();
    await (await fetch(url, post(0, 'initialize', { protocolVersion: REVISION, capabilities: {}, clientInfo: { name: 'b', version: '1' } }, 'Bearer bob'))).text();
    // Client A's call: its stream breaks after one event, and the engine resumes it.
    const answer = await (await fetch(url, post(1, 'tools/call', { name: 'echo', arguments: { text: 'A' } }, 'Bearer alice'))).text();
    expect(answer).toContain('done');
    const resumes = log.of('GET');
    expect(resumes.length).toBeGreaterThan(0);
    expect(resumes.map((r) => r.headers.authorization)).toEqual(resumes.map(() => 'Bearer alice'));
  });
});
