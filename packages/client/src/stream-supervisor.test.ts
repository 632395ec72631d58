import { startChaosServer, type ChaosServer, type Fault } from '@mcp-resilience/chaos';
import { normalizeTrace, resilienceCodeOf, SURFACED_ERROR_CODE, type ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createResilientFetch, type ResilientFetchOptions } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';
import { until } from './test-support/until.ts';

let chaos: ChaosServer | undefined;
let client: Client | undefined;
afterEach(() => stopAll([client], [chaos]).then(() => (chaos = client = undefined)));

async function setup(options: ResilientFetchOptions = {}) {
  chaos = await startChaosServer();
  const events: ResilienceEvent[] = [];
  const fetch = createResilientFetch({ onEvent: (e) => events.push(e), backoff: { initialMs: 10, maxMs: 50 }, ...options });
  client = new Client({ name: 'resilient', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url), { fetch }));
  return events;
}
const inject = (...faults: Fault[]) => chaos!.applyFaults(faults);
const types = (events: ResilienceEvent[]) => normalizeTrace(events).map((e) => e.type);

describe('a response stream that breaks before its response', () => {
  it('is resumed with GET + Last-Event-ID: the call succeeds and ran once', async () => {
    const events = await setup();
    await inject({ kind: 'drop-stream', afterEvents: 1, rpcMethod: 'tools/call' });
    await expect(client!.callTool({ name: 'record', arguments: { key: 'once' } })).resolves.toMatchObject({ content: [{ text: 'executions of once: 1' }] });
    expect(chaos!.state().ledger).toEqual({ once: 1 });
    expect(types(events)).toContain('resumed');
    const log = chaos!.state().log;
    expect(log.some((e) => e.fault === 'drop-stream')).toBe(true);
    expect(log.filter((e) => e.rpcMethod === 'tools/call')).toHaveLength(1); // never sent twice
  });

  it('waits the server\'s retry value before resuming', async () => {
    const waits: number[] = []; // the engine's sleep port: each wait told, none taken in real time
    const events = await setup({ sleep: async (ms) => void waits.push(ms) });
    await inject({ kind: 'drop-stream', afterEvents: 1, retryMs: 300, rpcMethod: 'tools/call' });
    await client!.callTool({ name: 'echo', arguments: { text: 'x' } });
    expect(events.find((e) => e.type === 'resumed')).toMatchObject({ delayMs: 300 });
    expect(waits).toContain(300);
  });

  it('is re-issued under a new id when it cannot be resumed and the call is safe', async () => {
    const events = await setup({ tools: { readOnlyTools: ['echo'] } });
    await inject({ kind: 'drop-stream', eventIds: false, rpcMethod: 'tools/call' });
    await expect(client!.callTool({ name: 'echo', arguments: { text: 'again' } })).resolves.toMatchObject({ content: [{ text: 'again' }] });
    expect(types(events)).toContain('reissued');
    const ids = chaos!.state().log.filter((e) => e.rpcMethod === 'tools/call').map((e) => String(e.rpcId));
    expect(ids[1]).toBe(`${ids[0]}~s1`);
  });

  it('resumed on a session evicted meanwhile (GET 404): the session is declared gone, the call fails OUTCOME_UNKNOWN (it may have run), and no later request carries the dead id', async () => {
    let evicted = false;
    // The engine's sleep port: the wait before the resume is where the eviction lands, and no time passes.
    const events = await setup({ sleep: async () => void (evicted || ((evicted = true), await inject({ kind: 'evict', session: 'all' }))) });
    await inject({ kind: 'drop-stream', afterEvents: 1, rpcMethod: 'tools/call' });
    const error = await client!.callTool({ name: 'record', arguments: { key: 'maybe' } }).then(() => undefined, (e: unknown) => e);
    expect(resilienceCodeOf(error)).toBe('OUTCOME_UNKNOWN');
    await expect(client!.callTool({ name: 'echo', arguments: { text: 'next' } })).resolves.toMatchObject({ content: [{ text: 'next' }] });
    const log = chaos!.state().log;
    const dead = log.find((e) => e.rpcMethod === 'tools/call')!.session;
    const refused = log.findIndex((e) => e.httpMethod === 'GET' && e.session === dead && e.status === 404);
    expect(refused).toBeGreaterThan(-1);
    expect(log.slice(refused + 1).filter((e) => e.session === dead && e.httpMethod === 'POST')).toEqual([]);
    expect(types(events)).toEqual(expect.arrayContaining(['resumed', 'session-lost', 'session-reinitialized']));
    expect(chaos!.state().ledger.maybe ?? 0).toBeLessThanOrEqual(1);
  });

  it('fails at once with OUTCOME_UNKNOWN when it cannot be resumed and the call is not safe: no timeout, no duplicate', async () => {
    const events = await setup();
    await inject({ kind: 'drop-stream', eventIds: false, rpcMethod: 'tools/call' });
    const error = await client!.callTool({ name: 'record', arguments: { key: 'maybe' } }).then(() => undefined, (e: unknown) => e);
    // The engine's error, written into the stream, not the SDK's request timeout (60 s: the test's own timeout, 30 s, ends a hung call first).
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: SURFACED_ERROR_CODE, data: { code: 'OUTCOME_UNKNOWN' } });
    expect(resilienceCodeOf(error)).toBe('OUTCOME_UNKNOWN');
    expect(chaos!.state().ledger).toEqual({ maybe: 1 });
    expect(types(events)).toContain('gave-up');
  });
});

describe('the standalone GET stream', () => {
  it('notices a lost session first, and reopens on a new session: the next call never fails', async () => {
    const events = await setup();
    await client!.callTool({ name: 'echo', arguments: { text: 'x' } });
    await inject({ kind: 'evict', session: 'all' });
    await until(() => chaos!.state().sessions.some((s) => s.ordinal === 2 && s.openStreams === 1));
    expect(chaos!.state().sessions).toEqual([expect.objectContaining({ ordinal: 2, openStreams: 1 })]);
    await client!.callTool({ name: 'echo', arguments: { text: 'y' } });
    expect(chaos!.state().log.filter((e) => e.rpcMethod === 'tools/call').map((e) => e.status)).toEqual([200, 200]);
    const reopened = chaos!.state().log.filter((e) => e.httpMethod === 'GET' && e.sessionOrdinal === 2);
    expect(reopened).toHaveLength(1);
    expect(types(events)).toContain('session-reinitialized');
  });
});
