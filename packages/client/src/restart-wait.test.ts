import { createServer } from 'node:net';
import { manualClock, startChaosServer, type ChaosServer, type ManualClock } from '@mcp-resilience/chaos';
import { isResilienceError, type ResilienceEvent } from '@mcp-resilience/core';
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createResilientFetch, type ResilientFetchOptions } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';
import { undiciRefused } from './test-support/undici-refused.ts';
import { virtualClock } from './test-support/virtual-clock.ts';

let chaos: ChaosServer | undefined;
const clients: { close(): Promise<unknown> }[] = [];
afterEach(() => stopAll(clients.splice(0), [chaos]).then(() => (chaos = undefined)));

/** A port on 127.0.0.1 where nothing listens: every connection to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const post = (f: typeof fetch, url: string, signal?: AbortSignal) => f(url, {
  method: 'POST', ...(signal ? { signal } : {}),
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } } }),
});

const waitEvents = (events: readonly ResilienceEvent[]) => events.filter((e) => e.type.startsWith('server-wait') || e.type === 'gave-up');

/** An SDK client of either line, connected through its own engine (Node's refusal port), that records its events. */
async function connect(line: 1 | 2, options: ResilientFetchOptions = {}) {
  const events: ResilienceEvent[] = [];
  const fetch = createResilientFetch({ notSent: undiciRefused, onEvent: (e) => events.push(e), ...options });
  if (line === 1) {
    const client = new Client({ name: 'sdk-1', version: '0' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(chaos!.url), { fetch }));
    return { events, call: (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) };
  }
  const client = new Client2({ name: 'sdk-2', version: '0' });
  clients.push(client);
  await client.connect(new Transport2(new URL(chaos!.url), { fetch }));
  return { events, call: (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) };
}

/** The engine's sleep and clock ports on the chaos server's manual clock: one time for both, moved by the test. */
function sharedTime(clock: ManualClock): Pick<ResilientFetchOptions, 'now' | 'sleep'> {
  return {
    now: () => clock.now(),
    sleep: (ms, signal) => new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const cancel = clock.after(ms, resolve);
      signal?.addEventListener('abort', () => (cancel(), reject(signal.reason)), { once: true });
    }),
  };
}

/** Moves the shared clock on, 50 ms at a time with a turn of the event loop between (the sockets' own I/O), until `work` settles. */
async function runClock<T>(clock: ManualClock, work: Promise<T>): Promise<T> {
  let settled = false;
  void work.then(() => (settled = true), () => (settled = true));
  while (!settled) {
    await clock.advance(50);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return work;
}

describe('a restart costs no call: a refused connection waits for the server', () => {
  it('a server down 10 s: every call of both SDK lines, read-only and non-idempotent, answers; each record runs exactly once', async () => {
    const clock = manualClock();
    chaos = await startChaosServer({ clock });
    const [one, two] = await Promise.all([connect(1, sharedTime(clock)), connect(2, sharedTime(clock))]);
    for (const client of [one, two]) await client.call('echo', { text: 'before' });
    const downAt = clock.now();
    await chaos.applyFaults([{ kind: 'restart', downMs: 10_000 }]);
    // The server, in this process, has just destroyed its keep-alive connections: a few turns of the event loop (no
    // timer) let the sockets close and the clients read those closes (two turns suffice on Node 20). A request written
    // to such a connection before its close is read may have been sent (undici: "other side closed"; invariant 5: a
    // non-idempotent one then fails OUTCOME_UNKNOWN); this test is about the calls made after the restart.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    // Sent while nothing listens: each is refused, waits, and goes once the server is back.
    const calls = [one, two].flatMap((client, c) => [
      client.call('echo', { text: `read ${c}` }), client.call('record', { key: `pay-${c}-a` }), client.call('record', { key: `pay-${c}-b` }),
    ]);
    const results = await runClock(clock, Promise.all(calls));
    expect(clock.now() - downAt).toBeGreaterThanOrEqual(10_000); // they did meet the whole outage
    expect(results.map((r) => (r.content as { text: string }[])[0]!.text)).toEqual([
      'read 0', 'executions of pay-0-a: 1', 'executions of pay-0-b: 1', 'read 1', 'executions of pay-1-a: 1', 'executions of pay-1-b: 1',
    ]);
    expect(chaos.state().ledger).toEqual({ 'pay-0-a': 1, 'pay-0-b': 1, 'pay-1-a': 1, 'pay-1-b': 1 });
    for (const { events } of [one, two]) {
      expect(events.filter((e) => e.type === 'gave-up')).toEqual([]);
      const calls = events.filter((e) => e.type.startsWith('server-wait') && 'method' in e && e.method === 'tools/call');
      expect(calls.filter((e) => e.type === 'server-wait-started')).toHaveLength(3);
      const ended = calls.filter((e) => e.type === 'server-wait-ended');
      expect(ended).toHaveLength(3);
      for (const end of ended) expect(end).toMatchObject({ outcome: 'reachable', waitedMs: expect.any(Number), attempts: expect.any(Number) });
      // The restart took the sessions: each call went on a new one after the wait (one re-initialization per client).
      expect(events.filter((e) => e.type === 'session-reinitialized')).toHaveLength(1);
    }
  });

  it('a server this client never reached: SERVER_UNREACHABLE at once, naming the URL (not its query), nothing waited; a typo costs no 20 s', async () => {
    const clock = virtualClock();
    const events: ResilienceEvent[] = [];
    const f = createResilientFetch({ notSent: undiciRefused, now: clock.now, sleep: clock.sleep, onEvent: (e) => events.push(e) });
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const error = await post(f, `${url}?key=secret`).then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ code: 'SERVER_UNREACHABLE', message: `Nothing answers at ${url}: the connection was refused`, details: { url, reached: false } });
    expect(clock.slept).toEqual([]);
    expect(waitEvents(events).map(({ atMs: _, ...e }) => e)).toEqual([{ type: 'gave-up', method: 'initialize', code: 'SERVER_UNREACHABLE' }]);
  });

  it.each([1, 2] as const)('connect() of SDK %s.x to a port where nothing listens fails at once with that error', async (line) => {
    const port = await closedPort();
    chaos = { url: `http://127.0.0.1:${port}/mcp` } as ChaosServer; // nothing to stop: nothing listens
    const clock = virtualClock({ holdAfter: 0 }); // any wait would hang the test
    const failed = await connect(line, { now: clock.now, sleep: clock.sleep }).then(() => undefined, (e: unknown) => e);
    expect(JSON.stringify(failed, Object.getOwnPropertyNames(failed))).toMatch(/SERVER_UNREACHABLE|Nothing answers/);
    chaos = undefined;
  });

  it('a server that never comes back (waitForNewServer): SERVER_UNREACHABLE at the deadline (requestDeadlineMs), every delay capped, on the engine clock', async () => {
    const clock = virtualClock();
    const events: ResilienceEvent[] = [];
    const f = createResilientFetch({ notSent: undiciRefused, now: clock.now, sleep: clock.sleep, onEvent: (e) => events.push(e), waitForNewServer: true });
    const error = await post(f, `http://127.0.0.1:${await closedPort()}/mcp`).then(() => undefined, (e: unknown) => e);
    expect(isResilienceError(error, 'SERVER_UNREACHABLE'), String(error)).toBe(true);
    expect(error).toMatchObject({ details: { maxWaitMs: 20_000 } });
    expect(clock.nowMs).toBe(20_000); // the last attempt went at the deadline itself, none after
    expect(Math.max(...clock.slept)).toBeLessThanOrEqual(1_000);
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBe(20_000);
    expect(waitEvents(events)).toEqual([
      { type: 'server-wait-started', method: 'initialize', limitMs: 20_000, atMs: 0 },
      { type: 'server-wait-ended', method: 'initialize', outcome: 'deadline', attempts: clock.slept.length, waitedMs: 20_000, atMs: 20_000 },
      { type: 'gave-up', method: 'initialize', code: 'SERVER_UNREACHABLE', atMs: 20_000 },
    ]);
  });

  it('a restartWait.maxWaitMs beyond requestDeadlineMs is cut to it; a shorter one holds', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    for (const [restartWait, endsAt] of [[{ maxWaitMs: 60_000 }, 20_000], [{ maxWaitMs: 3_000, maxMs: 200 }, 3_000]] as const) {
      const clock = virtualClock();
      const f = createResilientFetch({ notSent: undiciRefused, now: clock.now, sleep: clock.sleep, restartWait, waitForNewServer: true });
      await expect(post(f, url)).rejects.toMatchObject({ code: 'SERVER_UNREACHABLE', details: { maxWaitMs: endsAt } });
      expect(clock.nowMs).toBe(endsAt);
      expect(Math.max(...clock.slept)).toBeLessThanOrEqual(restartWait.maxMs ?? 1_000);
    }
  });

  it('a caller\'s abort ends the wait at once, with the abort reason, after any number of attempts', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    await fc.assert(fc.asyncProperty(fc.nat({ max: 6 }), async (attemptsBefore) => {
      const clock = virtualClock({ holdAfter: attemptsBefore });
      const events: ResilienceEvent[] = [];
      const f = createResilientFetch({ notSent: undiciRefused, now: clock.now, sleep: clock.sleep, onEvent: (e) => events.push(e), waitForNewServer: true });
      const controller = new AbortController();
      const call = post(f, url, controller.signal);
      await clock.held; // the call is in its wait, and only the abort can end it
      const reason = new Error('the user gave up');
      controller.abort(reason);
      await expect(call).rejects.toBe(reason);
      expect(waitEvents(events).map(({ atMs: _, ...e }) => e)).toEqual([
        { type: 'server-wait-started', method: 'initialize', limitMs: 20_000 },
        { type: 'server-wait-ended', method: 'initialize', outcome: 'aborted', attempts: attemptsBefore + 1, waitedMs: clock.nowMs },
      ]);
    }), { numRuns: 8 });
  });

  it('a bad restartWait or requestDeadlineMs is refused with INVALID_OPTION naming it', () => {
    const refused = (options: ResilientFetchOptions) => {
      try {
        createResilientFetch(options);
      } catch (error) {
        return isResilienceError(error, 'INVALID_OPTION') ? error.details.option : error;
      }
      return 'accepted';
    };
    expect(refused({ restartWait: { initialMs: 0 } })).toBe('restartWait.initialMs');
    expect(refused({ restartWait: { maxMs: Number.NaN } })).toBe('restartWait.maxMs');
    expect(refused({ restartWait: { maxWaitMs: Number.NaN } })).toBe('restartWait.maxWaitMs');
    expect(refused({ requestDeadlineMs: -1 })).toBe('requestDeadlineMs');
    expect(refused({ requestDeadlineMs: Number.NaN })).toBe('requestDeadlineMs');
    expect(refused({ requestDeadlineMs: 60_000, restartWait: { maxWaitMs: 60_000, maxMs: 2_000 } })).toBe('accepted');
    expect(refused({ restartWait: { maxWaitMs: 0 } })).toBe('accepted');
  });
});
