import { manualClock, REAL_CLOCK, startChaosServer, type ChaosServer, type DialectName, type Fault } from '@mcp-resilience/chaos';
import { isResilienceError, normalizeTrace, type ResilienceEvent } from '@mcp-resilience/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createResilientFetch, type ResilientFetchOptions } from './resilient-fetch.ts';
import { stopAll } from './test-support/stop-all.ts';
import { until } from './test-support/until.ts';
import { NO_GET_STREAM } from './test-support/no-get-stream.ts';

let chaos: ChaosServer | undefined;
let client: Client | undefined;
afterEach(() => stopAll([client], [chaos]).then(() => (chaos = client = undefined)));

/** How far a test has moved the engine's clock on (`later`), instead of waiting. */
let skewMs = 0;
const later = (ms: number) => void (skewMs += ms);
/** The engine's clock (its `now` port): it moves only when a test moves it, so a busy machine's pauses never count as idle time. */
const engineNow = () => 1_000_000 + skewMs;
afterEach(() => void (skewMs = 0));
/** The engine's sleep port on that clock: a wait moves it on at once. */
const sleepOnSkew = (ms: number) => (later(ms), Promise.resolve());

/** The chaos server's clock, by default: the engine's time (its uptime and the sessions' ages agree with the engine's), real timers. */
const sharedClock = { now: engineNow, after: REAL_CLOCK.after };

async function setup(chaosOptions: Parameters<typeof startChaosServer>[0] = {}, options: ResilientFetchOptions = {}) {
  chaos = await startChaosServer({ clock: sharedClock, ...chaosOptions });
  const events: ResilienceEvent[] = [];
  const fetch = createResilientFetch({
    onEvent: (e) => events.push(e), backoff: { initialMs: 10, maxMs: 50 }, now: engineNow, ...options,
  });
  client = new Client({ name: 'resilient', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url), { fetch }));
  return { events };
}
const inject = (...faults: Fault[]) => chaos!.applyFaults(faults);
const echo = (text = 'hi') => client!.callTool({ name: 'echo', arguments: { text } });
/** The POSTs on the wire, as "method status sN" (sN: the session the request carried, if the server knew it). */
const posts = () => chaos!.state().log.filter((e) => e.httpMethod === 'POST')
  .map((e) => `${e.rpcMethod} ${e.status}${e.sessionOrdinal === undefined ? '' : ` s${e.sessionOrdinal}`}`);
const trace = (events: ResilienceEvent[]) => normalizeTrace(events).filter((e) => !(e.type === 'session-started' && e.session === 1));

describe('session loss, with the official SDK client (1.x)', () => {
  it('survives an eviction: the failed call, one initialize, one replay, and the new session from then on', async () => {
    const { events } = await setup({ dialect: 'amdahl' });
    await echo('before');
    await inject({ kind: 'evict', session: 'all' });
    await expect(echo('after')).resolves.toMatchObject({ content: [{ text: 'after' }] });
    await expect(echo('later')).resolves.toMatchObject({ content: [{ text: 'later' }] });
    expect(posts()).toEqual([
      'initialize 200', 'notifications/initialized 202 s1', 'tools/call 200 s1',
      'tools/call 404', 'initialize 200', 'notifications/initialized 202 s2', 'tools/call 200 s2', 'tools/call 200 s2',
    ]);
    expect(trace(events)).toEqual([
      { type: 'session-lost', session: 1, dialect: 'amdahl', method: 'tools/call', cause: 'unknown', suspectedServerBug: false },
      { type: 'session-started', session: 2, revision: '2025-11-25' },
      { type: 'session-reinitialized', from: 1, to: 2, reason: 'lost' },
      { type: 'replayed', session: 2, method: 'tools/call' },
    ]);
  });

  it.each<DialectName>(['amdahl', 'typescript-sdk', 'python-sdk', 'go-sdk', 'express-400'])('recognises the %s dialect', async (dialect) => {
    const { events } = await setup({ dialect });
    await inject({ kind: 'evict', session: 'all' });
    await expect(echo()).resolves.toMatchObject({ content: [{ text: 'hi' }] });
    const lost = events.find((e) => e.type === 'session-lost');
    expect(lost).toMatchObject({ dialect });
  });

  it('diagnoses a restart from server_uptime_seconds', async () => {
    const { events } = await setup({ dialect: 'amdahl' });
    later(1_300); // the session is 1.3 s old, the restarted server 0 s
    await inject({ kind: 'restart' });
    await echo();
    expect(events.find((e) => e.type === 'session-lost')).toMatchObject({ cause: 'server-restarted', serverUptimeSeconds: 0, suspectedServerBug: false });
  });

  it('shares one re-initialization among concurrent calls on the dead session', async () => {
    await setup();
    await inject({ kind: 'evict', session: 'all' });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => echo(`c${i}`)));
    expect(answers.map((a) => (a.content as { text: string }[])[0]!.text)).toEqual(Array.from({ length: 20 }, (_, i) => `c${i}`));
    expect(posts().filter((p) => p.startsWith('initialize'))).toHaveLength(2); // the first session's, and one more
  });

  it('restores subscriptions and the log level on the new session', async () => {
    const { events } = await setup();
    await client!.subscribeResource({ uri: 'chaos://counter' });
    await client!.setLoggingLevel('debug');
    await inject({ kind: 'evict', session: 'all' });
    await echo();
    expect(chaos!.state().sessions).toEqual([expect.objectContaining({ ordinal: 2, subscriptions: ['chaos://counter'], logLevel: 'debug' })]);
    expect(trace(events)).toContainEqual({ type: 'state-restored', session: 2, subscriptions: 1, logLevel: 'debug' });
  });

  it('replays once only: a second loss of the same call is SESSION_LOST, with no loop', async () => {
    const base = globalThis.fetch;
    let initializes = 0;
    // Ends every new session as soon as it is opened: the replay meets a dead session too.
    const killingFetch: typeof fetch = async (input, init) => {
      const response = await base(input, init);
      if (typeof init?.body === 'string' && init.body.includes('"method":"initialize"') && ++initializes > 1) {
        await chaos!.applyFaults([{ kind: 'evict', session: 'all' }]);
      }
      return response;
    };
    await setup({}, { fetch: killingFetch });
    await inject({ kind: 'evict', session: 'all' });
    const error = await echo().then(() => undefined, (e: unknown) => e);
    expect(isResilienceError(error, 'SESSION_LOST')).toBe(true);
    expect(posts().filter((p) => p.startsWith('tools/call'))).toEqual(['tools/call 404', 'tools/call 404']);
  });

  it('never sends a dead session id again', async () => {
    await setup();
    await echo();
    await inject({ kind: 'evict', session: 'all' });
    await echo();
    await echo();
    const log = chaos!.state().log;
    const lossAt = log.findIndex((e) => e.status === 404);
    const dead = log[lossAt]!.session;
    expect(dead).toBeDefined();
    expect(log.slice(lossAt + 1).filter((e) => e.session === dead)).toEqual([]);
    expect(log.slice(lossAt + 1).every((e) => e.session === undefined || e.sessionOrdinal === 2)).toBe(true);
  });

  it('replaces an idle session before the next call when idleBudgetMs is set: no failed request', async () => {
    // No standalone stream (GET → 405): an open stream is use, and the session would never be idle.
    const { events } = await setup({ faults: [NO_GET_STREAM] }, { idleBudgetMs: 300 });
    await echo();
    later(500);
    await expect(echo()).resolves.toMatchObject({ content: [{ text: 'hi' }] });
    expect(posts().filter((p) => p.includes(' 404'))).toEqual([]);
    expect(trace(events)).toContainEqual({ type: 'session-reinitialized', from: 1, to: 2, reason: 'idle' });
  });
});

describe('rate limits and server errors, with the official SDK client (1.x)', () => {
  it('backs off 429 on the same session, honouring Retry-After', async () => {
    const { events } = await setup();
    await inject({ kind: 'status', status: 429, count: 2, retryAfter: '0' });
    await expect(echo()).resolves.toMatchObject({ content: [{ text: 'hi' }] });
    expect(posts().slice(-3)).toEqual(['tools/call 429 s1', 'tools/call 429 s1', 'tools/call 200 s1']);
    expect(trace(events).filter((e) => e.type === 'backed-off')).toEqual([
      { type: 'backed-off', method: 'tools/call', verdict: 'rate-limited', status: 429, attempt: 1 },
      { type: 'backed-off', method: 'tools/call', verdict: 'rate-limited', status: 429, attempt: 2 },
    ]);
  });

  it('fails at once with RETRY_AFTER_TOO_LONG on a hostile Retry-After', async () => {
    // At once: the engine waits for nothing (its sleep port is never asked) and sends the call once.
    const slept: number[] = [];
    await setup({}, { sleep: (ms) => (slept.push(ms), Promise.resolve()) });
    await inject({ kind: 'status', status: 503, retryAfter: '99999999999999999999' });
    const error = await echo().then(() => undefined, (e: unknown) => e);
    expect(isResilienceError(error, 'RETRY_AFTER_TOO_LONG')).toBe(true);
    expect(slept).toEqual([]);
    expect(posts().filter((p) => p.startsWith('tools/call'))).toEqual(['tools/call 503 s1']);
  });

  it('fails a non-idempotent call on a 502 with OUTCOME_UNKNOWN, without sending it again', async () => {
    await setup();
    await inject({ kind: 'status', status: 502, body: '<html>Bad Gateway</html>' });
    const error = await client!.callTool({ name: 'record', arguments: { key: 'k' } }).then(() => undefined, (e: unknown) => e);
    expect(isResilienceError(error, 'OUTCOME_UNKNOWN')).toBe(true);
    expect(posts().filter((p) => p.startsWith('tools/call'))).toEqual(['tools/call 502 s1']);
  });

  it('re-issues a trusted read-only call after a 502 under a new id, and the SDK gets its answer', async () => {
    const { events } = await setup({}, { tools: { readOnlyTools: ['echo'] } });
    await inject({ kind: 'status', status: 502 });
    await expect(echo('again')).resolves.toMatchObject({ content: [{ text: 'again' }] });
    const ids = chaos!.state().log.filter((e) => e.rpcMethod === 'tools/call').map((e) => String(e.rpcId));
    expect(ids).toHaveLength(2);
    expect(ids[1]).toBe(`${ids[0]}~r1`);
    expect(trace(events)).toContainEqual({ type: 'reissued', method: 'tools/call', attempt: 1 });
  });

  it('passes other 4xx through untouched, never retried', async () => {
    await setup();
    await inject({ kind: 'status', status: 403, body: 'forbidden' });
    await expect(echo()).rejects.toThrow(/403|forbidden/);
    expect(posts().filter((p) => p.startsWith('tools/call'))).toEqual(['tools/call 403 s1']);
  });
});

describe('idle replacement and backoff together', () => {
  it('keeps a call that is backing off on its session, however long the waits add up', async () => {
    // Two waits of a second each (on the engine's clock), against an idle budget of half a second.
    const { events } = await setup({}, { idleBudgetMs: 500, sleep: sleepOnSkew });
    await inject({ kind: 'status', status: 429, count: 2, retryAfter: '1' });
    await expect(echo()).resolves.toMatchObject({ content: [{ text: 'hi' }] });
    expect(events.filter((e) => e.type === 'session-reinitialized')).toEqual([]);
    const waits = events.flatMap((e) => (e.type === 'backed-off' ? [e.delayMs] : []));
    expect(waits).toHaveLength(2);
    expect(waits.every((ms) => ms >= 1_000)).toBe(true); // Retry-After: 1, honoured
    expect(posts().filter((p) => p.startsWith('tools/call')).every((p) => p.endsWith(' s1'))).toBe(true);
    expect(chaos!.state().log.filter((e) => e.httpMethod === 'DELETE')).toEqual([]);
  });

  it('backs off the initialize that replaces an idle session when it meets a rate limit, and answers the call on the new session', async () => {
    // The demo's act 3 on a slow machine: the session went idle past the budget just as a burst of 429s began.
    const { events } = await setup({ faults: [NO_GET_STREAM] }, { idleBudgetMs: 1_500, sleep: sleepOnSkew });
    await echo();
    later(2_000);
    await inject({ kind: 'status', status: 429, count: 2, retryAfter: '1' });
    await expect(echo('after')).resolves.toMatchObject({ content: [{ text: 'after' }] });
    expect(posts().slice(-5)).toEqual(['initialize 429', 'initialize 429', 'initialize 200', 'notifications/initialized 202 s2', 'tools/call 200 s2']);
    expect(trace(events)).toEqual([
      { type: 'backed-off', method: 'initialize', verdict: 'rate-limited', status: 429, attempt: 1 },
      { type: 'backed-off', method: 'initialize', verdict: 'rate-limited', status: 429, attempt: 2 },
      { type: 'session-started', session: 2, revision: '2025-11-25' },
      { type: 'session-reinitialized', from: 1, to: 2, reason: 'idle' },
    ]);
  });
});

describe('regressions found by the fault-schedule properties', () => {
  it('backs off the initialize of a re-initialization like any call', async () => {
    const { events } = await setup();
    await inject({ kind: 'evict', session: 'all' }, { kind: 'status', status: 503, retryAfter: '0', rpcMethod: 'initialize' });
    await expect(echo('after')).resolves.toMatchObject({ content: [{ text: 'after' }] });
    // (The standalone stream reopens too, when its timing lets it: only the call's own events here.)
    expect(trace(events).filter((e) => (e.type === 'backed-off' || e.type === 'replayed') && e.stream === undefined)).toEqual([
      { type: 'backed-off', method: 'initialize', verdict: 'unavailable', status: 503, attempt: 1 },
      { type: 'replayed', session: 2, method: 'tools/call' },
    ]);
  });

  it('hands on an answer bigger than one chunk of its stream', async () => {
    await setup();
    const big = 'x'.repeat(1024 * 1024);
    await expect(echo(big)).resolves.toMatchObject({ content: [{ text: big }] });
  });
});

describe('restored state works', () => {
  it('a subscription restored on the new session still delivers resource updates', async () => {
    await setup();
    const updates: string[] = [];
    const { ResourceUpdatedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    client!.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await client!.subscribeResource({ uri: 'chaos://counter' });
    await until(() => chaos!.state().sessions.some((s) => s.openStreams > 0));
    // An update on the old session's stream gives the SDK a cursor (an event id) from that session.
    await inject({ kind: 'change-resource', text: '41' });
    await until(() => updates.length === 1);
    await inject({ kind: 'evict', session: 'all' });
    await echo(); // meets the loss: new session, subscription restored, call replayed
    await until(() => chaos!.state().sessions.some((s) => s.ordinal === 2 && s.openStreams > 0)); // reopened, without the old cursor
    await inject({ kind: 'change-resource', text: '42' });
    await until(() => updates.length === 2);
    expect(updates).toEqual(['chaos://counter', 'chaos://counter']);
    expect(chaos!.state().log.filter((e) => e.httpMethod === 'GET' && e.status === 400)).toEqual([]);
    expect(chaos!.state().sessions).toEqual([expect.objectContaining({ ordinal: 2, subscriptions: ['chaos://counter'] })]);
  });
});

describe('in use is never idle', () => {
  it('does not replace a session while another call is in flight on it, however long', async () => {
    const clock = manualClock(); // the server's: slow takes its 2 s only when the test moves it
    const { events } = await setup({ faults: [NO_GET_STREAM], clock }, { idleBudgetMs: 300 });
    const slow = client!.callTool({ name: 'slow', arguments: { ms: 2_000 } });
    await until(() => chaos!.state().log.some((e) => e.rpcMethod === 'tools/call'));
    later(600); // twice the budget since the last exchange, with slow in flight all along
    await expect(echo('meanwhile')).resolves.toMatchObject({ content: [{ text: 'meanwhile' }] });
    later(2_000);
    await clock.advance(2_000);
    await expect(slow).resolves.toMatchObject({ content: [{ text: 'slept 2000 ms' }] });
    expect(events.filter((e) => e.type === 'session-reinitialized')).toEqual([]);
    expect(chaos!.state().log.filter((e) => e.httpMethod === 'DELETE')).toEqual([]);
  });

  it('does not replace a session before its handshake is over: a late notifications/initialized goes on it', async () => {
    chaos = await startChaosServer({ faults: [NO_GET_STREAM] });
    const events: ResilienceEvent[] = [];
    const resilient = createResilientFetch({ onEvent: (e) => events.push(e), idleBudgetMs: 300, now: engineNow });
    // The SDK is slow to send its notifications/initialized (a loaded machine): twice the budget after initialize.
    const slowSdk: typeof fetch = (input, init) => {
      if (typeof init?.body === 'string' && init.body.includes('"notifications/initialized"')) later(600);
      return resilient(input, init);
    };
    client = new Client({ name: 'resilient', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(chaos.url), { fetch: slowSdk }));
    await echo();
    expect(posts()).toEqual(['initialize 200', 'notifications/initialized 202 s1', 'tools/call 200 s1']);
    expect(events.filter((e) => e.type === 'session-reinitialized')).toEqual([]);
  });

  it('does not replace a session that holds its standalone stream open', async () => {
    // Only once the engine has handed the SDK its open stream (under load the SDK may take a while to open it)…
    let opened!: () => void;
    const streamOpen = new Promise<void>((resolve) => (opened = resolve));
    const spy: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === 'GET' && response.ok) opened();
      return response;
    };
    const { events } = await setup({}, { idleBudgetMs: 300, fetch: spy });
    await streamOpen;
    await new Promise((resolve) => setTimeout(resolve, 0)); // the engine's own steps after the fetch are microtasks: all done by now
    later(600); // … then quiet for twice the budget
    await echo();
    expect(events.filter((e) => e.type === 'session-reinitialized')).toEqual([]);
  });
});

describe('the state restored is the state that succeeded', () => {
  it('does not take a log level the server refused', async () => {
    const { events } = await setup();
    await client!.setLoggingLevel('debug');
    await expect(client!.setLoggingLevel('bogus' as 'debug')).rejects.toThrow(); // answered HTTP 200 with a JSON-RPC error
    await inject({ kind: 'evict', session: 'all' });
    await echo();
    expect(trace(events)).toContainEqual({ type: 'state-restored', session: 2, subscriptions: 0, logLevel: 'debug' });
    expect(chaos!.state().sessions).toEqual([expect.objectContaining({ ordinal: 2, logLevel: 'debug' })]);
  });
});
