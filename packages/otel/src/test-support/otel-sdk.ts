// The OpenTelemetry SDK as an application registers it, with in-memory exporters the tests read.
import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type DataPoint, type Histogram,
  type MetricData,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

/** A registered SDK: its exporters, a way to read the metrics so far, and its removal. */
export interface TestSdk {
  readonly spans: InMemorySpanExporter;
  /** Collects and exports now; the metrics exported, by name. */
  collect(): Promise<Map<string, MetricData>>;
  shutdown(): Promise<void>;
}

/**
 * Registers a meter provider, a tracer provider and Node's async context manager globally,
 * as an application's start-up does.
 *
 * @example
 * const sdk = registerTestSdk();
 * // … calls …
 * const losses = (await sdk.collect()).get('mcp.client.session.losses');
 */
export function registerTestSdk(): TestSdk {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(tracerProvider);
  metrics.setGlobalMeterProvider(meterProvider);
  return {
    spans,
    async collect() {
      exporter.reset();
      await reader.forceFlush();
      const all = exporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
      return new Map(all.map((m) => [m.descriptor.name, m]));
    },
    async shutdown() {
      await Promise.all([meterProvider.shutdown(), tracerProvider.shutdown()]);
      metrics.disable();
      trace.disable();
      context.disable();
    },
  };
}

/** A counter's points as `[attributes, value]`, for comparing with `toEqual`. */
export function counterPoints(metric: MetricData | undefined): [Record<string, unknown>, number][] {
  return (metric?.dataPoints ?? []).map((p) => [p.attributes, (p as DataPoint<number>).value]);
}

/** A histogram's points as `[attributes, count, sum]`. */
export function histogramPoints(metric: MetricData | undefined): [Record<string, unknown>, number, number][] {
  return (metric?.dataPoints ?? []).map((p) => {
    const value = (p as DataPoint<Histogram>).value;
    return [p.attributes, value.count, value.sum ?? 0];
  });
}
