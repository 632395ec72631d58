import { afterEach, describe, expect, it } from 'vitest';
import { startChaosServer, type ChaosServer } from './chaos-server.ts';
import { parseFault } from './faults.ts';
import { callTool, inject, openSession, post, stateOf } from './test-support/raw-client.ts';

let chaos: ChaosServer | undefined;
afterEach(async () => {
  await chaos?.stop();
  chaos = undefined;
});

const GATEWAY_PAGE = '<html><body><h1>503 Service Unavailable</h1></body></html>';

describe('fault: status after the run (a gateway that lost the answer of a request it forwarded)', () => {
  it('reads afterRun and contentType, and refuses what they cannot be', () => {
    expect(parseFault({ kind: 'status', status: 503, afterRun: true, contentType: 'text/html' }))
      .toEqual({ kind: 'status', status: 503, count: 1, afterRun: true, contentType: 'text/html' });
    expect(parseFault({ kind: 'status', status: 503, afterRun: false })).toEqual({ kind: 'status', status: 503, count: 1 });
    expect(() => parseFault({ kind: 'status', status: 503, afterRun: 'yes' })).toThrow(/afterRun/);
    expect(() => parseFault({ kind: 'status', status: 503, contentType: 'text/html\r\nx: y' })).toThrow(/contentType/);
  });

  it('lets record run, then answers 503 text/html without Retry-After in place of its answer; the next call is served', async () => {
    chaos = await startChaosServer();
    const session = await openSession(chaos.url);
    await inject(chaos, { kind: 'status', status: 503, afterRun: true, contentType: 'text/html', body: GATEWAY_PAGE, rpcMethod: 'tools/call' });
    const reply = await callTool(chaos.url, session, 'record', { key: 'payment-1' });
    expect({ status: reply.status, type: reply.headers.get('content-type'), text: reply.text }).toEqual({ status: 503, type: 'text/html', text: GATEWAY_PAGE });
    expect(reply.headers.get('retry-after')).toBeNull();
    expect(reply.headers.get('mcp-session-id')).toBeNull(); // nothing of the server's own answer leaves
    const state = await stateOf(chaos);
    expect(state.ledger).toEqual({ 'payment-1': 1 }); // it ran
    expect(state.log.filter((e) => e.rpcMethod === 'tools/call').map((e) => [e.status, e.fault])).toEqual([[503, 'status 503 after run']]);
    expect(state.faults.pendingStatus).toEqual([]);
    expect(await callTool(chaos.url, session, 'record', { key: 'payment-2' })).toMatchObject({ status: 200 });
  });

  it('keeps the CORS headers a page needs to read the 503', async () => {
    chaos = await startChaosServer();
    await inject(chaos, { kind: 'status', status: 503, afterRun: true, rpcMethod: 'initialize' });
    const reply = await post(chaos.url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } } }, { origin: 'http://localhost:5173' });
    expect(reply.status).toBe(503);
    expect(reply.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect((await stateOf(chaos)).sessions).toHaveLength(1); // the server opened the session the client never heard of
  });

  it('is taken only by a request that reaches the server: an answer in place of the server comes first', async () => {
    chaos = await startChaosServer();
    const session = await openSession(chaos.url);
    await inject(chaos, [{ kind: 'status', status: 503, afterRun: true, rpcMethod: 'tools/call' }, { kind: 'status', status: 429, retryAfter: '1', rpcMethod: 'tools/call' }]);
    expect((await callTool(chaos.url, session, 'record', { key: 'k' })).status).toBe(429);
    expect((await stateOf(chaos)).ledger).toEqual({});
    expect((await callTool(chaos.url, session, 'record', { key: 'k' })).status).toBe(503);
    expect((await stateOf(chaos)).ledger).toEqual({ k: 1 });
  });
});
