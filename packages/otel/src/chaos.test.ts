// The listener as an application uses it: an official SDK client whose transport's fetch is
// createResilientFetch({ onEvent: otelListener() }), against mcp-chaos on 127.0.0.1, with the
// OpenTelemetry SDK registered; what it reported is read back from the in-memory exporters.
import { startChaosServer, type ChaosServer } from '@mcp-resilience/chaos';
import { createResilientFetch, type ResilienceEvent } from '@mcp-resilience/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { METRIC } from './names.ts';
import { otelListener } from './otel-listener.ts';
import { counterPoints, histogramPoints, registerTestSdk, type TestSdk } from './test-support/otel-sdk.ts';

let sdk: TestSdk;
let chaos: ChaosServer | undefined;
let client: Client | undefined;

beforeEach(async () => {
  sdk = registerTestSdk();
  // No standalone GET stream (405): every session loss is met by a call, in that call's span.
  chaos = await startChaosServer({ faults: [{ kind: 'status', status: 405, httpMethod: 'GET', count: 1_000 }] });
});
afterEach(async () => {
  await client?.close().catch(() => {});
  await chaos?.stop();
  await sdk.shutdown();
  client = chaos = undefined;
});

/** An SDK client on the engine with the listener (and the test's own listener composed with it); the session ids the server gave out. */
async function connect() {
  const events: ResilienceEvent[] = [];
  const sessionIds = new Set<string>();
  // The engine's clock: real time, and a millisecond more with each answer, so that the engine's
  // own reckoning of a recovery (its initialize answered) is never 0 ms, however fast the machine.
  let answers = 0;
  const wire: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    answers++;
    const id = response.headers.get('mcp-session-id');
    if (id) sessionIds.add(id);
    return response;
  };
  const onEvent = otelListener({ attributes: { 'server.address': '127.0.0.1' }, onEvent: (e) => events.push(e) });
  const resilient = createResilientFetch({ fetch: wire, onEvent, backoff: { initialMs: 10, maxMs: 50 }, now: () => Date.now() + answers });
  client = new Client({ name: 'otel-test', version: '0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(chaos!.url), { fetch: resilient }));
  return { client, events, sessionIds };
}

/** Runs `work` inside a span of that name, as an agent's own tracing would; returns the span once ended. */
async function inSpan(name: string, work: () => Promise<unknown>): Promise<ReadableSpan> {
  await trace.getTracer('agent').startActiveSpan(name, async (span) => {
    try {
      await work();
    } finally {
      span.end();
    }
  });
  return sdk.spans.getFinishedSpans().find((s) => s.name === name)!;
}

const echo = (c: Client, text: string) => c.callTool({ name: 'echo', arguments: { text } });
const server = { 'server.address': '127.0.0.1' };

/** Nothing exported names a session by its id: the events carry ordinals only. */
async function expectNoSessionId(sessionIds: Set<string>): Promise<void> {
  const exported = JSON.stringify({
    metrics: [...(await sdk.collect()).values()],
    spans: sdk.spans.getFinishedSpans().map((s) => ({ attributes: s.attributes, events: s.events })),
  });
  expect(sessionIds.size).toBeGreaterThan(0);
  for (const id of sessionIds) expect(exported).not.toContain(id);
}

describe('otelListener through a real eviction and real 429s', () => {
  it('an eviction: the loss by cause, one re-initialization, one replay and the time to it as metrics; the same story on the call\'s span', async () => {
    const { client, events, sessionIds } = await connect();
    await inSpan('first call', () => echo(client, 'one'));
    await chaos!.applyFaults([{ kind: 'evict', session: 'all' }]);
    const evicted = await inSpan('call after eviction', () => expect(echo(client, 'two')).resolves.toMatchObject({ content: [{ text: 'two' }] }));

    const lost = events.find((e) => e.type === 'session-lost')!;
    const replayed = events.find((e) => e.type === 'replayed')!;
    expect(lost).toMatchObject({ session: 1, method: 'tools/call' });
    const cause = lost.type === 'session-lost' ? lost.cause : undefined;
    const found = await sdk.collect();
    expect(counterPoints(found.get(METRIC.sessionStarts))).toEqual([[{ ...server, 'mcp.protocol.version': expect.any(String) }, 2]]);
    expect(counterPoints(found.get(METRIC.sessionLosses))).toEqual([[{
      ...server, 'mcp.method.name': 'tools/call', 'mcp.session.loss.cause': cause, 'mcp.session.loss.dialect': 'typescript-sdk',
      'mcp.session.loss.suspected_server_bug': cause === 'evicted-while-busy',
    }, 1]]);
    expect(counterPoints(found.get(METRIC.reinitializations))).toEqual([[{ ...server, 'mcp.session.reinitialization.reason': 'lost' }, 1]]);
    expect(counterPoints(found.get(METRIC.replays))).toEqual([[{ ...server, 'mcp.method.name': 'tools/call', 'mcp.replay.stream': false }, 1]]);
    expect(found.has(METRIC.gaveUp)).toBe(false);
    // The histogram's one recovery is the engine's own reckoning, from the loss to the replay.
    expect(histogramPoints(found.get(METRIC.recoveryDuration))).toEqual([
      [{ ...server, 'mcp.session.loss.cause': cause, 'mcp.method.name': 'tools/call' }, 1, (replayed.atMs! - lost.atMs!) / 1_000],
    ]);
    expect(replayed.atMs! - lost.atMs!).toBeGreaterThan(0); // a re-initialization's answers move the clock

    expect(evicted.events.map((e) => e.name)).toEqual([
      'mcp.resilience.session_lost', 'mcp.resilience.session_started', 'mcp.resilience.session_reinitialized', 'mcp.resilience.replayed',
    ]);
    expect(evicted.events[0]!.attributes).toMatchObject({ 'mcp.resilience.session': 1, 'mcp.session.loss.cause': cause, ...server });
    expect(evicted.events[2]!.attributes).toMatchObject({ 'mcp.resilience.session.from': 1, 'mcp.resilience.session.to': 2 });
    expect(evicted.events[3]!.attributes).toMatchObject({ 'mcp.resilience.session': 2, 'mcp.method.name': 'tools/call' });
    expect(sdk.spans.getFinishedSpans().find((s) => s.name === 'first call')!.events).toEqual([]);
    expect(sessionIds.size).toBe(2);
    await expectNoSessionId(sessionIds);
  });

  it('429s: a backoff by status and its wait, then a Retry-After past the cap given up as RETRY_AFTER_TOO_LONG; each on its own call\'s span', async () => {
    const { client, events, sessionIds } = await connect();
    await chaos!.applyFaults([{ kind: 'status', status: 429, count: 1, retryAfter: '0' }]);
    const backedOff = await inSpan('rate limited', () => expect(echo(client, 'later')).resolves.toMatchObject({ content: [{ text: 'later' }] }));
    await chaos!.applyFaults([{ kind: 'status', status: 429, count: 1, retryAfter: '3600' }]);
    const refused = await inSpan('told to wait an hour', () => expect(echo(client, 'never')).rejects.toThrow());

    const wait = events.find((e) => e.type === 'backed-off')!;
    const verdict = wait.type === 'backed-off' ? wait.verdict : undefined;
    const found = await sdk.collect();
    const backoff = { ...server, 'mcp.method.name': 'tools/call', 'mcp.backoff.verdict': verdict, 'http.response.status_code': 429 };
    expect(counterPoints(found.get(METRIC.backoffs))).toEqual([[backoff, 1]]);
    expect(histogramPoints(found.get(METRIC.backoffDelay))).toEqual([[backoff, 1, (wait.type === 'backed-off' ? wait.delayMs : NaN) / 1_000]]);
    expect(counterPoints(found.get(METRIC.gaveUp))).toEqual([[{ ...server, 'mcp.method.name': 'tools/call', 'error.type': 'RETRY_AFTER_TOO_LONG' }, 1]]);
    expect(found.has(METRIC.sessionLosses)).toBe(false);
    expect(found.has(METRIC.recoveryDuration)).toBe(false);

    expect(backedOff.events.map((e) => [e.name, e.attributes])).toEqual([
      ['mcp.resilience.backed_off', { ...backoff, 'mcp.resilience.attempt': 1, 'mcp.resilience.delay_ms': expect.any(Number) }],
    ]);
    expect(refused.events.map((e) => [e.name, e.attributes])).toEqual([
      ['mcp.resilience.gave_up', { ...server, 'mcp.method.name': 'tools/call', 'error.type': 'RETRY_AFTER_TOO_LONG' }],
    ]);
    await expectNoSessionId(sessionIds);
  });
});
