import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { connect } from './connect.ts';
import { STORE_DEADLINE_MS } from './limits.ts';
import type { Deadline } from './ports.ts';
import { createResilientFetch } from './resilient-fetch.ts';
import type { SessionStore } from './session-store.ts';
import { stopAll } from './test-support/stop-all.ts';

let chaos: ChaosServer | undefined;
const clients: Client[] = [];
afterEach(() => stopAll(clients.splice(0), [chaos]).then(() => (chaos = undefined)));

/** A store whose every answer never comes. */
const silent: SessionStore = { get: () => new Promise(() => {}), set: () => new Promise(() => {}), delete: () => new Promise(() => {}) };
/** A store that fails every call. */
const failing: SessionStore = { get: () => Promise.reject(new Error('store down')), set: () => Promise.reject(new Error('store down')), delete: () => Promise.reject(new Error('store down')) };

/**
 * The deadline port on the test's own time: a store's deadline ({@link STORE_DEADLINE_MS}) runs
 * out at once (as if its 5 s had passed), every other bound never does. Records what was asked.
 */
function storeTimesOut(asked: number[]): Deadline {
  return (ms, work) => {
    asked.push(ms);
    const controller = new AbortController();
    if (ms === STORE_DEADLINE_MS) queueMicrotask(() => controller.abort(new DOMException('The operation timed out', 'TimeoutError')));
    return work(controller.signal);
  };
}
const wire = () => chaos!.state().log.filter((e) => e.httpMethod !== 'GET').map((e) => [e.rpcMethod ?? e.httpMethod, e.sessionOrdinal ?? null]);

describe('a session store\'s answer has a deadline: failing, silent or unreadable, it holds nothing', () => {
  it('connect({ resumeStored }) on a store that never answers connects fresh once the store\'s deadline passes', async () => {
    chaos = await startChaosServer();
    const asked: number[] = [];
    const client = await connect(chaos.url, { sessionStore: silent, resumeStored: true, identity: 'user:a', deadline: storeTimesOut(asked) });
    clients.push(client);
    await expect(client.callTool({ name: 'echo', arguments: { text: 'fresh' } })).resolves.toMatchObject({ content: [{ text: 'fresh' }] });
    expect(asked[0]).toBe(STORE_DEADLINE_MS);
    expect(wire()).toEqual([['initialize', null], ['notifications/initialized', 1], ['tools/call', 1]]);
  });

  it('connect({ resumeStored }) on a store that fails connects fresh instead of failing', async () => {
    chaos = await startChaosServer();
    const client = await connect(chaos.url, { sessionStore: failing, resumeStored: true, identity: 'user:a' });
    clients.push(client);
    await expect(client.callTool({ name: 'echo', arguments: { text: 'fresh' } })).resolves.toMatchObject({ content: [{ text: 'fresh' }] });
    expect(wire()).toEqual([['initialize', null], ['notifications/initialized', 1], ['tools/call', 1]]);
  });

  it('connect({ resumeStored }) on a store holding something that is not a session (another version, tampered) connects fresh', async () => {
    chaos = await startChaosServer();
    const junk: SessionStore = { get: () => ({ sessionId: 'not-a-session', revision: 7 }) as never, set: () => {}, delete: () => {} };
    const client = await connect(chaos.url, { sessionStore: junk, resumeStored: true, identity: 'user:a' });
    clients.push(client);
    await expect(client.callTool({ name: 'echo', arguments: { text: 'fresh' } })).resolves.toMatchObject({ content: [{ text: 'fresh' }] });
    expect(wire()).toEqual([['initialize', null], ['notifications/initialized', 1], ['tools/call', 1]]);
  });

  it('a request carrying a session id the engine does not know is not held by a silent store: it goes on that session', async () => {
    chaos = await startChaosServer();
    const first = await connect(chaos.url);
    clients.push(first);
    const sessionId = (first.transport as StreamableHTTPClientTransport).sessionId!;
    const asked: number[] = [];
    // Another engine (a new isolate) handed that session: it asks its store, which never answers.
    const second = new Client({ name: 'second', version: '0' });
    clients.push(second);
    await second.connect(new StreamableHTTPClientTransport(new URL(chaos.url), {
      sessionId, fetch: createResilientFetch({ sessionStore: silent, deadline: storeTimesOut(asked) }),
    }));
    await expect(second.callTool({ name: 'echo', arguments: { text: 'on' } })).resolves.toMatchObject({ content: [{ text: 'on' }] });
    expect(asked).toContain(STORE_DEADLINE_MS);
    expect(wire()).toEqual([['initialize', null], ['notifications/initialized', 1], ['tools/call', 1]]);
  });
});
