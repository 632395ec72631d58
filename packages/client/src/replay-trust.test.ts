import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import { isResilienceError, type ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY } from './options.ts';
import { createResilientFetch, type ResilientFetchOptions } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';

let chaos: ChaosServer | undefined;
let client: Client | undefined;
afterEach(() => stopAll([client], [chaos]).then(() => (chaos = client = undefined)));

async function setup(options: ResilientFetchOptions, chaosOptions: Parameters<typeof startChaosServer>[0] = {}) {
  chaos = await startChaosServer(chaosOptions);
  const events: ResilienceEvent[] = [];
  client = new Client({ name: 'trust', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url), {
    fetch: createResilientFetch({ onEvent: (e) => events.push(e), backoff: { initialMs: 10, maxMs: 50 }, ...options }),
  }));
  return events;
}
const bad502 = { kind: 'status', status: 502, count: 1, rpcMethod: 'tools/call' } as const;
const outcome = (call: Promise<unknown>) => call.then(() => 'answered', (e: unknown) => (isResilienceError(e) ? e.code : String(e)));

describe('tools.trustAnnotations: the annotations the server advertised in tools/list', () => {
  it.each([['SSE answers', false], ['JSON answers', true]])('re-issues a 502 on echo (readOnlyHint) once tools/list was seen (%s)', async (_, jsonResponses) => {
    const events = await setup({ tools: { trustAnnotations: true } }, { jsonResponses });
    await client!.listTools();
    await chaos!.applyFaults([bad502]);
    await expect(client!.callTool({ name: 'echo', arguments: { text: 'trusted' } })).resolves.toMatchObject({ content: [{ text: 'trusted' }] });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['reissued']));
  });

  it('believes nothing it was not told: before any tools/list, and for a tool the list calls neither read-only nor idempotent', async () => {
    const events = await setup({ tools: { trustAnnotations: true } });
    await chaos!.applyFaults([bad502]);
    expect(await outcome(client!.callTool({ name: 'echo', arguments: { text: 'unlisted' } }))).toBe('OUTCOME_UNKNOWN');
    await client!.listTools();
    await chaos!.applyFaults([bad502]);
    expect(await outcome(client!.callTool({ name: 'record', arguments: { key: 'k' } }))).toBe('OUTCOME_UNKNOWN');
    expect(events.filter((e) => e.type === 'reissued')).toEqual([]);
  });

  it('does not believe the hints unless trustAnnotations says so', async () => {
    await setup({});
    await client!.listTools();
    await chaos!.applyFaults([bad502]);
    expect(await outcome(client!.callTool({ name: 'echo', arguments: { text: 'x' } }))).toBe('OUTCOME_UNKNOWN');
  });

  it('believes a new session only once it was listed there: a server that restarted may say otherwise (onSessionRestored can list it)', async () => {
    await setup({ tools: { trustAnnotations: true } });
    await client!.listTools();
    await chaos!.applyFaults([{ kind: 'evict', session: 'all' }]);
    await client!.callTool({ name: 'echo', arguments: { text: 'replayed' } });
    await chaos!.applyFaults([bad502]);
    expect(await outcome(client!.callTool({ name: 'echo', arguments: { text: 'not listed here' } }))).toBe('OUTCOME_UNKNOWN');
    await stopAll([client], [chaos]);

    await setup({ tools: { trustAnnotations: true }, onSessionRestored: (context) => context.request('tools/list') });
    await client!.listTools();
    await chaos!.applyFaults([{ kind: 'evict', session: 'all' }]);
    await client!.callTool({ name: 'echo', arguments: { text: 'replayed' } });
    await chaos!.applyFaults([bad502]);
    await expect(client!.callTool({ name: 'echo', arguments: { text: 'listed again' } })).resolves.toMatchObject({ content: [{ text: 'listed again' }] });
  });
});

describe('replay consent for one call', () => {
  it(`re-issues a call whose _meta carries "${IDEMPOTENCY_KEY}", and only that call`, async () => {
    const events = await setup({});
    await chaos!.applyFaults([bad502]);
    await expect(client!.callTool({ name: 'record', arguments: { key: 'keyed' }, _meta: { [IDEMPOTENCY_KEY]: 'order-17' } }))
      .resolves.toMatchObject({ content: [{ text: 'executions of keyed: 1' }] });
    await chaos!.applyFaults([bad502]);
    expect(await outcome(client!.callTool({ name: 'record', arguments: { key: 'plain' } }))).toBe('OUTCOME_UNKNOWN');
    expect(chaos!.state().ledger).toEqual({ keyed: 1 });
    expect(events.filter((e) => e.type === 'reissued')).toHaveLength(1);
  });

  it('re-issues a call the replayConsent predicate vouches for', async () => {
    await setup({ replayConsent: (request) => (request.params?.arguments as { key?: string } | undefined)?.key === 'vouched' });
    await chaos!.applyFaults([bad502]);
    await expect(client!.callTool({ name: 'record', arguments: { key: 'vouched' } })).resolves.toMatchObject({ content: [{ text: 'executions of vouched: 1' }] });
    await chaos!.applyFaults([bad502]);
    expect(await outcome(client!.callTool({ name: 'record', arguments: { key: 'other' } }))).toBe('OUTCOME_UNKNOWN');
  });

  it('does not override replay: never', async () => {
    await setup({ replay: 'never' });
    await chaos!.applyFaults([bad502]);
    expect(await outcome(client!.callTool({ name: 'record', arguments: { key: 'k' }, _meta: { [IDEMPOTENCY_KEY]: 'x' } }))).toBe('OUTCOME_UNKNOWN');
  });
});
