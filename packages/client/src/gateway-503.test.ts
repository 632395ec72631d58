import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY } from './options.ts';
import { createResilientFetch, type ResilientFetchOptions } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';
import { startTamperProxy, type Tamper, type TamperProxy } from './test-support/tamper-proxy.ts';

let chaos: ChaosServer | undefined;
let gateway: TamperProxy | undefined;
let client: Client | undefined;
afterEach(() => stopAll([client], [gateway, chaos]).then(() => (chaos = gateway = client = undefined)));

/** What a router sends when its upstream timed out or reset after it had forwarded the request: no Retry-After, no JSON-RPC. */
const GATEWAY_503 = { status: 503, contentType: 'text/html', body: '<html><body><h1>503 Service Unavailable</h1>upstream reset</body></html>' };
const RPC_503 = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Server overloaded, try again' }, id: null });

/**
 * An SDK 1.x client through the engine, through a gateway in front of mcp-chaos. The gateway
 * forwards `tools/call` and, while `replacing` says so, swaps the server's answer for its 503
 * once the server has answered (the call ran). Waits go through a sleep port that only notes them.
 */
async function setup(options: ResilientFetchOptions & { replacing?: (seen: number) => boolean } = {}) {
  const { replacing = () => false, ...engine } = options;
  chaos = await startChaosServer();
  gateway = await startTamperProxy(chaos.url, ({ rpcMethod, seen }): Tamper =>
    (rpcMethod === 'tools/call' && replacing(seen) ? { replaceAnswer: GATEWAY_503 } : 'forward'));
  const events: ResilienceEvent[] = [];
  const waits: number[] = [];
  client = new Client({ name: 'gateway-503', version: '0' });
  const fetch = createResilientFetch({
    onEvent: (e) => events.push(e), sleep: async (ms) => void waits.push(ms), backoff: { initialMs: 10, maxMs: 50 }, ...engine,
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url), { fetch }));
  const calls = () => chaos!.state().log.filter((e) => e.rpcMethod === 'tools/call').map((e) => e.status);
  return { events, waits, calls };
}

describe("a 503 is \"not processed\" only in the server's own words", () => {
  it("a gateway's 503 text/html without Retry-After, after it forwarded record: OUTCOME_UNKNOWN at once, record ran once, never sent again", async () => {
    const { events, waits, calls } = await setup({ replacing: () => true });
    const error = await client!.callTool({ name: 'record', arguments: { key: 'payment-1' } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'OUTCOME_UNKNOWN' });
    expect(chaos!.state().ledger).toEqual({ 'payment-1': 1 });
    expect(gateway!.received('tools/call')).toBe(1); // the engine sent it once
    expect(calls()).toEqual([200]); // and the server answered it: the 503 was the gateway's
    expect(events.filter((e) => e.type !== 'session-started')).toEqual([
      expect.objectContaining({ type: 'gave-up', method: 'tools/call', code: 'OUTCOME_UNKNOWN' }),
    ]);
    expect(waits).toEqual([]);
  });

  it('the same 503 on a call safe to repeat (an idempotency key, a trusted read-only tool): re-issued, answered once more', async () => {
    const { events, calls } = await setup({ replacing: (seen) => seen % 2 === 0, tools: { readOnlyTools: ['echo'] } });
    const vouched = await client!.callTool({ name: 'record', arguments: { key: 'order-7' }, _meta: { [IDEMPOTENCY_KEY]: 'order-7' } });
    expect(vouched).toMatchObject({ content: [{ text: 'executions of order-7: 2' }] }); // the application vouched: it took that risk
    await expect(client!.callTool({ name: 'echo', arguments: { text: 'again' } })).resolves.toMatchObject({ content: [{ text: 'again' }] });
    expect(calls()).toEqual([200, 200, 200, 200]);
    expect(events.filter((e) => e.type === 'reissued')).toEqual([
      expect.objectContaining({ method: 'tools/call', attempt: 1 }), expect.objectContaining({ method: 'tools/call', attempt: 1 }),
    ]);
  });

  it('a 503 with Retry-After (the server asking to be called again): backed off after its wait, sent again on the same session, record run once', async () => {
    const { events, waits, calls } = await setup();
    await chaos!.applyFaults([{ kind: 'status', status: 503, retryAfter: '1', rpcMethod: 'tools/call', body: '<html>down for a moment</html>' }]);
    await expect(client!.callTool({ name: 'record', arguments: { key: 'payment-2' } })).resolves.toMatchObject({ content: [{ text: 'executions of payment-2: 1' }] });
    expect(chaos!.state().ledger).toEqual({ 'payment-2': 1 });
    expect(calls()).toEqual([503, 200]);
    expect(events.filter((e) => e.type === 'backed-off')).toEqual([
      expect.objectContaining({ method: 'tools/call', verdict: 'unavailable', status: 503, attempt: 1 }),
    ]);
    expect(waits.filter((ms) => ms >= 1000)).toHaveLength(1); // its Retry-After, not the 10 ms backoff
    expect(new Set(chaos!.state().log.filter((e) => e.rpcMethod === 'tools/call').map((e) => e.sessionOrdinal))).toEqual(new Set([1]));
  });

  it("a 503 with the MCP server's JSON-RPC error and no Retry-After: backed off and sent again, record run once", async () => {
    const { events, calls } = await setup();
    await chaos!.applyFaults([{ kind: 'status', status: 503, rpcMethod: 'tools/call', body: RPC_503 }]);
    await expect(client!.callTool({ name: 'record', arguments: { key: 'payment-3' } })).resolves.toMatchObject({ content: [{ text: 'executions of payment-3: 1' }] });
    expect(chaos!.state().ledger).toEqual({ 'payment-3': 1 });
    expect(calls()).toEqual([503, 200]);
    expect(events.filter((e) => e.type === 'backed-off')).toEqual([
      expect.objectContaining({ method: 'tools/call', verdict: 'unavailable', status: 503, attempt: 1 }),
    ]);
  });
});
