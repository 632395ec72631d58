import type { Attributes, Counter, Histogram, Meter } from '@opentelemetry/api';
import type { EventType } from '@mcp-resilience/core';
import { METRIC } from './names.ts';

/** Bucket boundaries (s) for waits and recoveries: a few ms (a local re-initialization) to a minute (a long `Retry-After`). */
const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The metric instruments of one meter. */
export interface Instruments {
  /** The counter an event type adds one to; none for the types told on spans only. */
  readonly counters: Partial<Record<EventType, Counter<Attributes>>>;
  readonly backoffDelay: Histogram<Attributes>;
  readonly recoveryDuration: Histogram<Attributes>;
}

/**
 * Creates this package's instruments on `meter` (see {@link METRIC} for each one's meaning).
 * `session-changed` and `state-restored` get no counter: the first always ends in a
 * `gave-up` with `SESSION_CHANGED`, which is counted, and the second is a detail of a
 * re-initialization, which is counted; both are span events.
 *
 * @example
 * const instruments = createInstruments(metrics.getMeter('@mcp-resilience/otel'));
 * instruments.counters['gave-up']?.add(1, { 'error.type': 'SESSION_LOST' });
 */
export function createInstruments(meter: Meter): Instruments {
  const counter = (name: string, unit: string, description: string) => meter.createCounter(name, { unit, description });
  const seconds = (name: string, description: string) =>
    meter.createHistogram(name, { unit: 's', description, advice: { explicitBucketBoundaries: SECONDS_BUCKETS } });
  return {
    counters: {
      'session-started': counter(METRIC.sessionStarts, '{session}', 'MCP sessions opened by the client'),
      'session-lost': counter(METRIC.sessionLosses, '{loss}', 'MCP sessions found gone, by cause'),
      'session-reinitialized': counter(METRIC.reinitializations, '{reinitialization}', 'MCP sessions opened to replace another'),
      replayed: counter(METRIC.replays, '{replay}', 'MCP calls sent again on a new session'),
      'backed-off': counter(METRIC.backoffs, '{backoff}', 'Waits before sending an MCP call again on the same session'),
      resumed: counter(METRIC.resumptions, '{resumption}', 'Broken MCP response streams resumed'),
      reissued: counter(METRIC.reissues, '{reissue}', 'MCP requests of unknown outcome sent again because that was safe'),
      'server-wait-ended': counter(METRIC.serverWaits, '{wait}', 'Waits for an MCP server that refused connections to listen again, by outcome'),
      'gave-up': counter(METRIC.gaveUp, '{call}', 'MCP calls the resilience engine gave up on, by error code'),
      'task-survived': counter(METRIC.tasksSurvived, '{task}', 'MCP tasks that outlived their session'),
      'task-lost': counter(METRIC.tasksLost, '{task}', 'MCP tasks the server no longer knows'),
      'unrecognised-answer': counter(METRIC.unrecognisedAnswers, '{answer}', 'Refusals that no "session gone" dialect knows'),
    },
    backoffDelay: seconds(METRIC.backoffDelay, 'How long the client waited before sending an MCP call again'),
    recoveryDuration: seconds(METRIC.recoveryDuration, 'From an MCP session found gone to the call sent again on its replacement'),
  };
}
