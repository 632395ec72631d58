// Run by src/deno.test.ts inside Deno (the repository's Deno workspace): the Deno package's
// connect, with otelListener as its onEvent, through a real eviction on the mcp-chaos whose URLs
// are the arguments; the OpenTelemetry SDK's in-memory exporters read back. Prints one JSON line.
import { connect } from '@mcp-resilience/deno';
import { otelListener } from '@mcp-resilience/otel';
import { context, metrics, trace } from 'npm:@opentelemetry/api@1.9.1';
import { AsyncLocalStorageContextManager } from 'npm:@opentelemetry/context-async-hooks@2.12.1';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from 'npm:@opentelemetry/sdk-metrics@2.12.1';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from 'npm:@opentelemetry/sdk-trace-base@2.12.1';

const [url, control] = Deno.args as [string, string];
const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
const meterProvider = new MeterProvider({ readers: [reader] });
const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(tracerProvider);
metrics.setGlobalMeterProvider(meterProvider);

const client = await connect(url, { onEvent: otelListener() });
await client.callTool({ name: 'echo', arguments: { text: 'one' } });
await fetch(`${control}/faults`, { method: 'POST', body: JSON.stringify({ kind: 'evict', session: 'all' }) }).then((r) => r.body?.cancel());
const answer = await trace.getTracer('deno-agent').startActiveSpan('after eviction', async (span) => {
  try {
    return await client.callTool({ name: 'echo', arguments: { text: 'two' } });
  } finally {
    span.end();
  }
});
await client.close();
await reader.forceFlush();
const found = exporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
const points = (name: string) => found.find((m) => m.descriptor.name === name)?.dataPoints.map((p) => [p.attributes, p.value]) ?? [];
console.log(JSON.stringify({
  answer: (answer.content as { text: string }[])[0]?.text,
  losses: points('mcp.client.session.losses'),
  replays: points('mcp.client.replays'),
  recoveries: points('mcp.client.session.recovery.duration').map(([attributes, value]) => [attributes, (value as { count: number }).count]),
  spanEvents: spans.getFinishedSpans().find((s) => s.name === 'after eviction')?.events.map((e) => e.name),
}));
await Promise.all([meterProvider.shutdown(), tracerProvider.shutdown()]);
