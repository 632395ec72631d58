import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createResilientFetch } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';
import { startTamperProxy, type TamperProxy } from './test-support/tamper-proxy.ts';
import { NO_GET_STREAM } from './test-support/no-get-stream.ts';

let chaos: ChaosServer | undefined;
let proxy: TamperProxy | undefined;
let client: Client | undefined;
afterEach(() => stopAll([client], [proxy, chaos]).then(() => (chaos = proxy = client = undefined)));

describe('a session evicted while in use', () => {
  it('is reported with a ready, redacted bug report: ages, uptime, why busy, the last exchanges', async () => {
    // No standalone stream (GET 405), so "busy" is the recent exchange; the server says it has been up an hour.
    chaos = await startChaosServer({ dialect: 'amdahl', faults: [NO_GET_STREAM] });
    proxy = await startTamperProxy(chaos.url, () => ({ rewrite: (body) => body.replace(/"server_uptime_seconds":\d+/, '"server_uptime_seconds":3600') }));
    const events: ResilienceEvent[] = [];
    const ids = new Set<string>();
    const spy: typeof fetch = async (input, init) => {
      const id = new Headers(init?.headers).get('mcp-session-id');
      if (id) ids.add(id);
      return fetch(input, init);
    };
    client = new Client({ name: 'busy', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url), {
      // The engine's clock stands still: the session is busy (its last exchange 0 ms ago) however long the test takes.
      fetch: createResilientFetch({ fetch: spy, onEvent: (e) => events.push(e), busyWindowMs: 30_000, now: () => 1_000_000 }),
    }));
    await client.callTool({ name: 'echo', arguments: { text: 'busy' } });
    await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
    await client.callTool({ name: 'echo', arguments: { text: 'again' } });
    const lost = events.find((e) => e.type === 'session-lost');
    expect(lost).toMatchObject({
      cause: 'evicted-while-busy', suspectedServerBug: true, serverUptimeSeconds: 3600,
      report: {
        serverUptimeSeconds: 3600, busy: { because: 'recent-exchange', windowMs: 30_000 },
        sessionAgeMs: expect.any(Number), idleMs: expect.any(Number),
      },
    });
    const report = (lost as Extract<ResilienceEvent, { type: 'session-lost' }>).report!;
    expect(report.exchanges.map(({ method, status }) => `${method} ${status}`)).toEqual(expect.arrayContaining([
      'notifications/initialized 202', 'tools/call 200', 'tools/call 404',
    ]));
    expect(report.exchanges.at(-1)).toMatchObject({ method: 'tools/call', status: 404 });
    expect(ids.size).toBeGreaterThan(0);
    for (const id of ids) expect(JSON.stringify(events)).not.toContain(id);
  });

  it('is not reported as a bug when the server restarted or the session sat idle', async () => {
    chaos = await startChaosServer({ dialect: 'amdahl' });
    const events: ResilienceEvent[] = [];
    let skewMs = 0; // the engine's clock: the session looks older than the server that restarted
    client = new Client({ name: 'restarted', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url), {
      fetch: createResilientFetch({ onEvent: (e) => events.push(e), now: () => Date.now() + skewMs }),
    }));
    skewMs = 5_000;
    await chaos.applyFaults([{ kind: 'restart' }]);
    await client.callTool({ name: 'echo', arguments: { text: 'after the restart' } });
    const lost = events.find((e) => e.type === 'session-lost');
    expect(lost).toMatchObject({ cause: 'server-restarted', suspectedServerBug: false });
    expect(lost).not.toHaveProperty('report');
  });
});
