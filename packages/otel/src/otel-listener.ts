import { metrics, trace, type Attributes, type Meter } from '@opentelemetry/api';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { metricAttributes, spanAttributes } from './attributes.ts';
import { createInstruments, type Instruments } from './instruments.ts';
import { ATTRIBUTE, spanEventName } from './names.ts';
import { RecoveryClock } from './recovery-clock.ts';

/** The instrumentation scope this package's meter is named after. */
export const INSTRUMENTATION_SCOPE = '@mcp-resilience/otel';

/** Options of {@link otelListener}. */
export interface OtelListenerOptions {
  /**
   * The meter to report on. Default: `metrics.getMeter('@mcp-resilience/otel')` of the global
   * meter provider, looked up again until one is registered (an SDK started after the listener
   * was made is still reported to).
   */
  readonly meter?: Meter;
  /** Add each event to the caller's active span, if there is one and it records (default `true`). */
  readonly spanEvents?: boolean;
  /** Added to every metric point and span event: which server, say (`{ 'server.address': 'tools.internal' }`). */
  readonly attributes?: Attributes;
  /** Your own listener, told of every event after this one (its errors are yours). */
  readonly onEvent?: (event: ResilienceEvent) => void;
}

/**
 * An `onEvent` for `createResilientFetch` (or `connect`, of any runtime's package) that reports
 * every engine event through `@opentelemetry/api`: counters of session losses by cause,
 * re-initializations, replays, backoffs, give-ups by code and more, a histogram of the time from
 * a loss to the call sent again, and an event on the caller's active span. With no OpenTelemetry
 * SDK registered it does nothing, and it never throws. Events carry session ordinals, never ids,
 * so none reaches a metric or a span. Use one listener per fetch: a histogram's loss-to-replay
 * pairing goes by session ordinal, which each fetch counts on its own.
 *
 * @example
 * import { createResilientFetch } from '@mcp-resilience/node';
 * import { otelListener } from '@mcp-resilience/otel';
 *
 * const fetch = createResilientFetch({ onEvent: otelListener({ onEvent: (e) => console.log(e.type) }) });
 */
export function otelListener(options: OtelListenerOptions = {}): (event: ResilienceEvent) => void {
  const { meter: given, spanEvents = true, attributes = {}, onEvent } = options;
  const clock = new RecoveryClock();
  let current: { readonly meter: Meter; readonly instruments: Instruments } | undefined;

  function instruments(): Instruments {
    const meter = given ?? metrics.getMeter(INSTRUMENTATION_SCOPE);
    if (current?.meter !== meter) current = { meter, instruments: createInstruments(meter) };
    return current.instruments;
  }

  function report(event: ResilienceEvent): void {
    const recovery = clock.observe(event); // before anything can fail: the pairing must see every event
    const { counters, backoffDelay, recoveryDuration } = instruments();
    const points = { ...attributes, ...metricAttributes(event) };
    counters[event.type]?.add(1, points);
    if (event.type === 'backed-off') backoffDelay.record(event.delayMs / 1_000, points);
    if (recovery) {
      recoveryDuration.record(recovery.seconds, {
        ...attributes, [ATTRIBUTE.lossCause]: recovery.cause, ...(event.type === 'replayed' && event.method ? { [ATTRIBUTE.method]: event.method } : {}),
      });
    }
    if (!spanEvents) return;
    const span = trace.getActiveSpan();
    if (span?.isRecording()) span.addEvent(spanEventName(event.type), { ...attributes, ...spanAttributes(event) });
  }

  return (event) => {
    try {
      report(event);
    } catch {
      // Telemetry never changes what the engine does, nor keeps the application's listener from hearing.
    }
    onEvent?.(event);
  };
}
