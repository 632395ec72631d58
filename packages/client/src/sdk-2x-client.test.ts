import { startChaosServer, type ChaosServer, type Fault } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createResilientFetch } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';

let chaos: ChaosServer | undefined;
let client: Client | undefined;
afterEach(() => stopAll([client], [chaos]).then(() => (chaos = client = undefined)));

async function setup(tools: string[] = []) {
  chaos = await startChaosServer({ mode: 'modern' });
  const events: ResilienceEvent[] = [];
  const fetch = createResilientFetch({ onEvent: (e) => events.push(e), backoff: { initialMs: 10, maxMs: 50 }, tools: { readOnlyTools: tools } });
  client = new Client({ name: 'resilient-modern', version: '0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url), { fetch }));
  return events;
}
const inject = (...faults: Fault[]) => chaos!.applyFaults(faults);

describe('createResilientFetch with the newer SDK client (2.x) on 2026-07-28', () => {
  it('runs no session logic: no session is learned, none is lost', async () => {
    const events = await setup();
    await inject({ kind: 'evict', session: 'all' }, { kind: 'restart' });
    await expect(client!.callTool({ name: 'echo', arguments: { text: 'stateless' } })).resolves.toMatchObject({ content: [{ text: 'stateless' }] });
    expect(events.filter((e) => e.type.startsWith('session-') || e.type === 'replayed')).toEqual([]);
    expect(chaos!.state().log.every((e) => e.session === undefined)).toBe(true);
  });

  it('backs off a 503 on the same footing as any revision', async () => {
    const events = await setup();
    await inject({ kind: 'status', status: 503, count: 2, retryAfter: '0' });
    await expect(client!.callTool({ name: 'echo', arguments: { text: 'x' } })).resolves.toMatchObject({ content: [{ text: 'x' }] });
    expect(events.filter((e) => e.type === 'backed-off')).toHaveLength(2);
  });

  it("does not take a gateway's 503 (text/html, no Retry-After) after record ran for \"not processed\": OUTCOME_UNKNOWN, run once", async () => {
    const events = await setup();
    await inject({ kind: 'status', status: 503, afterRun: true, contentType: 'text/html', body: '<html>503 Service Unavailable</html>', rpcMethod: 'tools/call' });
    await expect(client!.callTool({ name: 'record', arguments: { key: 'order-9' } })).rejects.toMatchObject({ code: 'OUTCOME_UNKNOWN' });
    expect(chaos!.state().ledger).toEqual({ 'order-9': 1 });
    expect(chaos!.state().log.filter((e) => e.rpcMethod === 'tools/call').map((e) => e.status)).toEqual([503]);
    expect(events.map((e) => e.type)).toEqual(['gave-up']);
  });

  it('re-issues a safe call whose stream broke under a new id (no resumption in this revision)', async () => {
    const events = await setup(['slow']);
    await inject({ kind: 'drop-stream', afterEvents: 1, rpcMethod: 'tools/call' });
    const result = await client!.callTool({ name: 'slow', arguments: { ms: 50, steps: 2 } }, { onprogress: () => {} });
    expect(result).toMatchObject({ content: [{ text: 'slept 50 ms' }] });
    expect(events.map((e) => e.type)).toEqual(['reissued']);
    const ids = chaos!.state().log.filter((e) => e.rpcMethod === 'tools/call').map((e) => String(e.rpcId));
    expect(ids).toEqual([ids[0], `${ids[0]}~s1`]);
  });
});

describe('createResilientFetch with the newer SDK client (2.x) on a sessionful revision', () => {
  it('survives an eviction like the 1.x client: one re-initialization, one replay', async () => {
    chaos = await startChaosServer({ dialect: 'python-sdk' });
    const events: ResilienceEvent[] = [];
    client = new Client({ name: 'resilient-2x', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url), { fetch: createResilientFetch({ onEvent: (e) => events.push(e) }) }));
    await client.callTool({ name: 'echo', arguments: { text: 'before' } });
    await inject({ kind: 'evict', session: 'all' });
    await expect(client.callTool({ name: 'echo', arguments: { text: 'after' } })).resolves.toMatchObject({ content: [{ text: 'after' }] });
    expect(events.map((e) => e.type)).toEqual(['session-started', 'session-lost', 'session-started', 'session-reinitialized', 'replayed']);
    expect(events.find((e) => e.type === 'session-lost')).toMatchObject({ dialect: 'python-sdk' });
  });
});

describe('a 404 on 2026-07-28', () => {
  it.each([
    ['method not found', '{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found"}}'],
    ['a body that would mean "session gone" on a sessionful revision', '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Session not found. Please reinitialize.","data":{"reason":"session_not_found"}}}'],
  ])('is never a session loss (%s): delivered once, no re-initialization', async (_, body) => {
    const events = await setup();
    await inject({ kind: 'status', status: 404, body, rpcMethod: 'tools/call' });
    await expect(client!.callTool({ name: 'echo', arguments: { text: 'x' } })).rejects.toThrow();
    expect(events).toEqual([]);
    expect(chaos!.state().log.filter((e) => e.rpcMethod === 'tools/call')).toHaveLength(1);
    await expect(client!.callTool({ name: 'echo', arguments: { text: 'next' } })).resolves.toMatchObject({ content: [{ text: 'next' }] });
  });
});
