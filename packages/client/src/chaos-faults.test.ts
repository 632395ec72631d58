import { manualClock, startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createResilientFetch, type ResilientFetchOptions } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';
import { undiciRefused } from './test-support/undici-refused.ts';
import { until } from './test-support/until.ts';
import { NO_GET_STREAM } from './test-support/no-get-stream.ts';

let chaos: ChaosServer | undefined;
const clients: Client[] = [];
afterEach(() => stopAll(clients.splice(0), [chaos]).then(() => (chaos = undefined)));

async function connect(options: ResilientFetchOptions = {}) {
  const events: ResilienceEvent[] = [];
  const client = new Client({ name: 'resilient', version: '0' });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(chaos!.url), { fetch: createResilientFetch({ onEvent: (e) => events.push(e), ...options }) }));
  return { client, events };
}

/** One clock for the server and the engine: each wait of the engine's (its sleep port) lets as much of the server's time pass. */
function sharedClock() {
  const clock = manualClock();
  return { clock, sleep: (ms: number) => clock.advance(ms) };
}

describe('the other chaos faults, through the engine', () => {
  it('refused connections, where the runtime says so: the server waited for until it listens again (nothing was sent, so any call may go again)', async () => {
    const { clock, sleep } = sharedClock();
    chaos = await startChaosServer({ clock });
    const { client, events } = await connect({ notSent: undiciRefused, sleep });
    await chaos.applyFaults([{ kind: 'refuse', ms: 300 }]);
    await expect(client.callTool({ name: 'record', arguments: { key: 'after-refusal' } })).resolves.toMatchObject({ content: [{ text: 'executions of after-refusal: 1' }] });
    const waits = events.filter((e) => e.type.startsWith('server-wait') && 'method' in e && e.method === 'tools/call');
    expect(waits).toEqual([expect.objectContaining({ type: 'server-wait-started' }), expect.objectContaining({ type: 'server-wait-ended', outcome: 'reachable' })]);
    expect(chaos.state().ledger).toEqual({ 'after-refusal': 1 });
  });

  it('refused connections, where the runtime cannot tell (the default port): maybe sent, so an unsafe call ends OUTCOME_UNKNOWN (the fetch\'s error its cause), a safe one is re-issued', async () => {
    const { clock, sleep } = sharedClock();
    chaos = await startChaosServer({ clock });
    const { client, events } = await connect({ backoff: { initialMs: 100, maxMs: 400, maxAttempts: 6 }, tools: { readOnlyTools: ['echo'] }, sleep });
    await chaos.applyFaults([{ kind: 'refuse', ms: 300 }]);
    const error = await client.callTool({ name: 'record', arguments: { key: 'maybe' } }).catch((e: unknown) => e as Error);
    expect(error).toMatchObject({ code: 'OUTCOME_UNKNOWN' });
    expect(error.cause).toBeInstanceOf(TypeError); // what the runtime said of the fetch that got no answer (undici: "fetch failed")
    await expect(client.callTool({ name: 'echo', arguments: { text: 'safe' } })).resolves.toMatchObject({ content: [{ text: 'safe' }] });
    expect(events.filter((e) => e.type === 'gave-up')).toEqual([expect.objectContaining({ method: 'tools/call', code: 'OUTCOME_UNKNOWN' })]);
    expect(chaos.state().ledger).toEqual({});
  });

  it('capacity never evicts a client that holds its standalone stream open: listening is use', async () => {
    chaos = await startChaosServer({ faults: [{ kind: 'capacity', max: 1 }] });
    const listening = await connect();
    await until(() => chaos!.state().sessions.some((s) => s.openStreams > 0)); // its GET stream is open
    await connect();
    expect(chaos.state().sessions.map((s) => s.ordinal)).toEqual([1, 2]);
    await listening.client.callTool({ name: 'echo', arguments: { text: 'still here' } });
    expect(listening.events.map((e) => e.type)).toEqual(['session-started']);
  });

  it('capacity eviction: a client with no stream open loses its idle session and recovers on its next call', async () => {
    // A server without the standalone stream (GET → 405): sessions are idle between calls.
    chaos = await startChaosServer({ faults: [{ kind: 'capacity', max: 1 }, NO_GET_STREAM] });
    const quiet = await connect({ backoff: { initialMs: 10, maxMs: 50 } });
    await quiet.client.callTool({ name: 'echo', arguments: { text: 'a' } });
    await connect(); // arrives while quiet is idle: quiet's session is the one to go
    expect(chaos.state().sessions.map((s) => s.ordinal)).toEqual([2]);
    await expect(quiet.client.callTool({ name: 'echo', arguments: { text: 'b' } })).resolves.toMatchObject({ content: [{ text: 'b' }] });
    expect(quiet.events.map((e) => e.type)).toEqual(['session-started', 'session-lost', 'session-started', 'session-reinitialized', 'replayed']);
  });
});
