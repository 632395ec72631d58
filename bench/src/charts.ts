import type { RecoveryResult } from './recovery.ts';
import type { SoakReport } from './soak-report.ts';
import { SESSION_KILLERS, type FaultKind } from './soak-schedule.ts';
import { chart, distribution, type Marker } from './svg-chart.ts';

/**
 * The latency of the call that met a session loss, engine against workaround, with healthy
 * calls of the same run for scale: cumulative distributions on a log axis.
 *
 * @example
 * writeFileSync('recovery-latency.svg', recoveryChart(run.recovery));
 */
export function recoveryChart(recovery: RecoveryResult): string {
  return chart({
    title: 'Latency of the call that meets a session loss (cumulative)',
    xLabel: 'latency, ms (log scale)', yLabel: '% of calls at or below', logX: true,
    series: [
      { label: 'healthy call (same run)', color: '#888', points: distribution(recovery.reactive.healthyLatencies) },
      { label: 'engine: 404 → initialize → replay', color: '#0a6', points: distribution(recovery.reactive.latencies) },
      { label: 'engine with idleBudgetMs', color: '#06c', points: distribution(recovery.proactive.latencies) },
      { label: 'workaround: new client', color: '#c60', points: distribution(recovery.workaround.latencies) },
    ],
  });
}

const markersOf = (timeline: SoakReport['timeline']): Marker[] => timeline.buckets.flatMap((b) => Object.keys(b.faults)
  .filter((kind) => SESSION_KILLERS.has(kind as FaultKind)).map((kind) => ({ x: b.startMs / 1000, label: kind })));

/**
 * The soak over time: calls answered per time slice, with a marker at each fault that ended
 * sessions (throughput dips and recovers).
 *
 * @example
 * writeFileSync('soak-timeline.svg', soakChart(report.timeline));
 */
export function soakChart(timeline: SoakReport['timeline']): string {
  return chart({
    title: 'Chaos soak: calls answered over time', xLabel: 'time, s (dashed: a fault that ended sessions)', yLabel: `calls per ${timeline.bucketMs} ms`,
    series: [{ label: 'calls answered', color: '#0a6', bars: true, points: timeline.buckets.map((b) => [b.startMs / 1000, b.completed - b.errors]) }],
    markers: markersOf(timeline),
  });
}

/**
 * The soak's recoveries over time: sessions replaced and calls failed per time slice, with the
 * same fault markers.
 *
 * @example
 * writeFileSync('soak-recoveries.svg', soakRecoveryChart(report.timeline));
 */
export function soakRecoveryChart(timeline: SoakReport['timeline']): string {
  return chart({
    title: 'Chaos soak: sessions replaced and calls failed over time', xLabel: 'time, s (dashed: a fault that ended sessions)',
    yLabel: `per ${timeline.bucketMs} ms`,
    series: [
      { label: 'sessions replaced', color: '#06c', bars: true, points: timeline.buckets.map((b) => [b.startMs / 1000, b.reinitializations]) },
      { label: 'calls failed', color: '#c00', points: timeline.buckets.map((b) => [b.startMs / 1000, b.errors]) },
    ],
    markers: markersOf(timeline),
  });
}
