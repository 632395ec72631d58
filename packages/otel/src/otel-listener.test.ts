// The listener's own rules, with the SDK registered and events made by hand (the engine's real
// events are in chaos.test.ts).
import type { ResilienceEvent } from '@mcp-resilience/core';
import { trace, type Meter } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { METRIC } from './names.ts';
import { otelListener } from './otel-listener.ts';
import { EVERY_EVENT } from './test-support/every-event.ts';
import { counterPoints, histogramPoints, registerTestSdk, type TestSdk } from './test-support/otel-sdk.ts';

let sdk: TestSdk | undefined;
afterEach(async () => {
  await sdk?.shutdown();
  sdk = undefined;
});

const all = Object.values(EVERY_EVENT) as ResilienceEvent[];
const total = (points: [unknown, number][]) => points.reduce((sum, [, value]) => sum + value, 0);

describe('otelListener', () => {
  it('counts every event type in its own counter, except session-changed, state-restored and server-wait-started (span events only: a wait is counted once, when it ends)', async () => {
    sdk = registerTestSdk();
    const listener = otelListener();
    for (const event of all) listener(event);
    const found = await sdk.collect();
    const counted = [
      METRIC.sessionStarts, METRIC.sessionLosses, METRIC.reinitializations, METRIC.replays, METRIC.backoffs, METRIC.resumptions,
      METRIC.reissues, METRIC.serverWaits, METRIC.gaveUp, METRIC.tasksSurvived, METRIC.tasksLost, METRIC.unrecognisedAnswers,
    ];
    for (const name of counted) expect(total(counterPoints(found.get(name))), name).toBe(1);
    expect([...found.keys()].sort()).toEqual([...counted, METRIC.backoffDelay, METRIC.recoveryDuration].sort());
    expect(histogramPoints(found.get(METRIC.backoffDelay))).toEqual([[expect.any(Object), 1, 0.25]]);
    // session-lost at 100, replaced by 2 at 130, replayed on 2 at 160.
    expect(histogramPoints(found.get(METRIC.recoveryDuration))).toEqual([
      [{ 'mcp.session.loss.cause': 'evicted-while-busy', 'mcp.method.name': 'tools/call' }, 1, 0.06],
    ]);
    expect(found.get(METRIC.recoveryDuration)!.descriptor).toMatchObject({ unit: 's' });
  });

  it('reports to an SDK registered after it was made (the global meter is looked up until there is one)', async () => {
    const listener = otelListener();
    listener(EVERY_EVENT['gave-up']);
    sdk = registerTestSdk();
    listener(EVERY_EVENT['gave-up']);
    expect(counterPoints((await sdk.collect()).get(METRIC.gaveUp))).toEqual([[{ 'mcp.method.name': 'tools/call', 'error.type': 'OUTCOME_UNKNOWN' }, 1]]);
  });

  it('adds each event to the active span that records, with your attributes; none with spanEvents: false, none outside a span', async () => {
    sdk = registerTestSdk();
    const withSpans = otelListener({ attributes: { 'server.address': 'tools.internal' } });
    const without = otelListener({ spanEvents: false });
    withSpans(EVERY_EVENT['state-restored']); // no active span: nothing to add it to
    trace.getTracer('t').startActiveSpan('call', (span) => {
      withSpans(EVERY_EVENT['replayed']);
      without(EVERY_EVENT['gave-up']);
      span.end();
    });
    const [span] = sdk.spans.getFinishedSpans();
    expect(span!.events.map((e) => [e.name, e.attributes])).toEqual([
      ['mcp.resilience.replayed', { 'server.address': 'tools.internal', 'mcp.method.name': 'tools/call', 'mcp.replay.stream': false, 'mcp.resilience.session': 2 }],
    ]);
    expect(counterPoints((await sdk.collect()).get(METRIC.replays))).toEqual([[{ 'server.address': 'tools.internal', 'mcp.method.name': 'tools/call', 'mcp.replay.stream': false }, 1]]);
  });

  it('a telemetry failure stays its own: the engine is not told of it, and your onEvent still hears every event', () => {
    const broken = { createCounter: () => { throw new Error('exporter down'); } } as unknown as Meter;
    const heard: string[] = [];
    const listener = otelListener({ meter: broken, onEvent: (e) => heard.push(e.type) });
    for (const event of all) expect(() => listener(event)).not.toThrow();
    expect(heard).toEqual(all.map((e) => e.type));
  });

  it('reports on the meter it is given, and leaves the errors of your onEvent to you', async () => {
    sdk = registerTestSdk();
    const { metrics } = await import('@opentelemetry/api');
    const listener = otelListener({ meter: metrics.getMeter('my-agent'), onEvent: () => { throw new Error('yours'); } });
    expect(() => listener(EVERY_EVENT['session-started'])).toThrow('yours');
    expect(counterPoints((await sdk.collect()).get(METRIC.sessionStarts))).toEqual([[{ 'mcp.protocol.version': '2025-11-25' }, 1]]);
  });
});
