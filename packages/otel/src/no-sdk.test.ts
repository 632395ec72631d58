// With no OpenTelemetry SDK registered (the API alone, as in an application that does not use
// OpenTelemetry), the listener costs nothing and breaks nothing. This file registers no SDK.
import { metrics, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { otelListener } from './otel-listener.ts';
import { EVERY_EVENT } from './test-support/every-event.ts';

describe('otelListener with no SDK registered', () => {
  it('takes every event type, throws nothing, and hands each to your own onEvent, in order', () => {
    expect(metrics.getMeterProvider().constructor.name).toBe('NoopMeterProvider');
    expect(trace.getActiveSpan()).toBeUndefined();
    const heard: string[] = [];
    const listener = otelListener({ onEvent: (e) => heard.push(e.type) });
    for (const event of Object.values(EVERY_EVENT)) expect(() => listener(event)).not.toThrow();
    expect(heard).toEqual(Object.keys(EVERY_EVENT));
  });

  it('works with no options at all, inside a span of the no-op tracer too', () => {
    const listener = otelListener();
    trace.getTracer('app').startActiveSpan('no-op', (span) => {
      for (const event of Object.values(EVERY_EVENT)) expect(() => listener(event)).not.toThrow();
      expect(span.isRecording()).toBe(false);
      span.end();
    });
  });
});
