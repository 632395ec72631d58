import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { describeEvent } from './describe-event.ts';
import { createResilientFetch, type ResilientFetchOptions } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';
import { startTamperProxy, type TamperProxy } from './test-support/tamper-proxy.ts';

let chaos: ChaosServer | undefined;
let proxy: TamperProxy | undefined;
let client: Client | undefined;
afterEach(() => stopAll([client], [proxy, chaos]).then(() => (chaos = proxy = client = undefined)));

/** A server of its own kind: once its session is gone, it says so with a 400 that names the id, in no dialect's words; a new session works. */
async function setup(options: ResilientFetchOptions = {}) {
  chaos = await startChaosServer();
  let gone = false;
  let dead: string | undefined; // the session that was current when it went: a new one works
  proxy = await startTamperProxy(chaos.url, ({ rpcMethod, sessionId }) => (gone && rpcMethod === 'tools/call' && sessionId === (dead ??= sessionId)
    ? { answer: { status: 400, contentType: 'application/json', body: JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32011, message: `Unknown session ${sessionId}` } }) } }
    : 'forward'));
  const events: ResilienceEvent[] = [];
  const ids: string[] = [];
  const spy: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const id = response.headers.get('mcp-session-id');
    if (id) ids.push(id);
    return response;
  };
  client = new Client({ name: 'unrecognised', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url), { fetch: createResilientFetch({ fetch: spy, onEvent: (e) => events.push(e), ...options }) }));
  return { events, ids, goneFromNowOn: () => void (gone = true) };
}

describe('an answer no "session gone" dialect knows, to a request that carried a session id', () => {
  it('reaches the caller as it is, and is told as an event, with the session id redacted, to report or to add as a dialect', async () => {
    const { events, ids, goneFromNowOn } = await setup();
    goneFromNowOn();
    await expect(client!.callTool({ name: 'echo', arguments: { text: 'x' } })).rejects.toThrow(/Unknown session/);
    const told = events.find((e) => e.type === 'unrecognised-answer');
    expect(told).toMatchObject({ type: 'unrecognised-answer', method: 'tools/call', status: 400, code: -32011, message: expect.stringMatching(/^Unknown session sid-[0-9a-f]{8}$/) });
    for (const id of ids) expect(JSON.stringify(events)).not.toContain(id);
    expect(describeEvent(told!)).toMatch(/^mcp-resilience tools\/call got HTTP 400 \(-32011 "Unknown session sid-[0-9a-f]{8}"\), which no "session gone" dialect knows/);
  });

  it('once added with the dialects option, is a session loss like any other: recovered with one initialize and one replay', async () => {
    const { events, goneFromNowOn } = await setup({
      dialects: [{ name: 'my-server', status: 400, code: -32011, messagePrefix: 'Unknown session', outcome: 'not-processed' }],
    });
    goneFromNowOn();
    await expect(client!.callTool({ name: 'echo', arguments: { text: 'recovered' } })).resolves.toMatchObject({ content: [{ text: 'recovered' }] });
    expect(events.filter((e) => e.type === 'unrecognised-answer')).toEqual([]);
    expect(events.find((e) => e.type === 'session-lost')).toMatchObject({ dialect: 'my-server' });
    expect(chaos!.state().log.filter((e) => e.rpcMethod === 'initialize')).toHaveLength(2);
  });
});
