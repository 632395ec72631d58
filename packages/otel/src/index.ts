/**
 * @mcp-resilience/otel — the resilience engine's events as OpenTelemetry metrics and span
 * events, through `@opentelemetry/api` alone: web-standard code that runs on Node, Deno,
 * Workers and in browsers, and does nothing when the application registered no SDK.
 *
 * @example
 * import { connect } from '@mcp-resilience/node';
 * import { otelListener } from '@mcp-resilience/otel';
 *
 * const client = await connect('http://127.0.0.1:3000/mcp', { onEvent: otelListener() });
 *
 * @module
 */
export { otelListener, INSTRUMENTATION_SCOPE, type OtelListenerOptions } from './otel-listener.ts';
export { ATTRIBUTE, METRIC, SPAN_EVENT_PREFIX, spanEventName } from './names.ts';
export { metricAttributes, spanAttributes } from './attributes.ts';
