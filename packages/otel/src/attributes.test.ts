import { describe, expect, it } from 'vitest';
import type { ResilienceEvent } from '@mcp-resilience/core';
import { metricAttributes, spanAttributes } from './attributes.ts';
import { EVERY_EVENT } from './test-support/every-event.ts';

const events = Object.values(EVERY_EVENT) as ResilienceEvent[];

describe('metricAttributes', () => {
  it('maps each event type to its few-valued facts: never an ordinal, a count, a time or free text', () => {
    expect(Object.fromEntries(events.map((e) => [e.type, metricAttributes(e)]))).toEqual({
      'session-started': { 'mcp.protocol.version': '2025-11-25' },
      'session-lost': {
        'mcp.method.name': 'tools/call', 'mcp.session.loss.cause': 'evicted-while-busy', 'mcp.session.loss.dialect': 'amdahl',
        'mcp.session.loss.suspected_server_bug': true,
      },
      'session-reinitialized': { 'mcp.session.reinitialization.reason': 'lost' },
      'session-changed': {},
      'state-restored': {},
      replayed: { 'mcp.method.name': 'tools/call', 'mcp.replay.stream': false },
      'backed-off': { 'mcp.method.name': 'tools/call', 'mcp.backoff.verdict': 'rate-limited', 'http.response.status_code': 429 },
      resumed: { 'mcp.method.name': 'tools/call' },
      reissued: { 'mcp.method.name': 'resources/read' },
      'server-wait-started': { 'mcp.method.name': 'tools/call' },
      'server-wait-ended': { 'mcp.method.name': 'tools/call', 'mcp.server_wait.outcome': 'reachable' },
      'gave-up': { 'mcp.method.name': 'tools/call', 'error.type': 'OUTCOME_UNKNOWN' },
      'task-survived': {},
      'task-lost': { 'mcp.method.name': 'tasks/get', 'mcp.task.loss.cause': 'server-restarted', 'mcp.task.may_still_run': false, 'mcp.task.recreatable': true },
      'unrecognised-answer': { 'mcp.method.name': 'tools/list', 'http.response.status_code': 400, 'rpc.jsonrpc.error_code': -32000 },
    });
  });

  it('leaves out what an event does not say (no method, no status)', () => {
    expect(metricAttributes({ type: 'backed-off', verdict: 'not-processed', attempt: 1, delayMs: 5 })).toEqual({ 'mcp.backoff.verdict': 'not-processed' });
    expect(metricAttributes({ type: 'replayed', session: 3, stream: true })).toEqual({ 'mcp.replay.stream': true });
  });
});

describe('spanAttributes', () => {
  it('adds the details of one call: session ordinals, attempts, waits, ages, what changed or was restored, what the server said', () => {
    const span = (type: keyof typeof EVERY_EVENT) => spanAttributes(EVERY_EVENT[type]);
    expect(span('session-lost')).toMatchObject({
      'mcp.resilience.session': 1, 'mcp.resilience.session.age_ms': 9_000, 'mcp.resilience.session.idle_ms': 10,
      'mcp.resilience.server.uptime_s': 3_600, 'mcp.resilience.loss_report': JSON.stringify(EVERY_EVENT['session-lost'].report),
    });
    expect(span('session-reinitialized')).toMatchObject({ 'mcp.resilience.session.from': 1, 'mcp.resilience.session.to': 2 });
    expect(span('session-changed')).toEqual({
      'mcp.resilience.session.from': 2, 'mcp.resilience.session.to': 3, 'mcp.resilience.revision.from': '2025-06-18',
      'mcp.resilience.revision.to': '2025-11-25', 'mcp.resilience.changed_capabilities': ['tools', 'resources'],
    });
    expect(span('state-restored')).toEqual({ 'mcp.resilience.session': 2, 'mcp.resilience.restored.subscriptions': 2, 'mcp.resilience.restored.log_level': 'debug' });
    expect(span('backed-off')).toMatchObject({ 'mcp.resilience.attempt': 1, 'mcp.resilience.delay_ms': 250 });
    expect(span('task-survived')).toEqual({ 'mcp.resilience.task': 1, 'mcp.resilience.session.from': 1, 'mcp.resilience.session': 2 });
    expect(span('unrecognised-answer')).toMatchObject({ 'mcp.resilience.answer.message': 'Bad Request: sid-b38c730e unknown' });
  });

  it('holds only values a span accepts, and every metric attribute of the same event', () => {
    for (const event of events) {
      const attributes = spanAttributes(event);
      expect(attributes).toMatchObject(metricAttributes(event));
      for (const value of Object.values(attributes)) {
        expect(['string', 'number', 'boolean'].includes(typeof value) || (Array.isArray(value) && value.every((v) => typeof v === 'string'))).toBe(true);
      }
    }
  });

  it('never carries atMs: a span event has its own time', () => {
    for (const event of events) expect(JSON.stringify(spanAttributes(event))).not.toMatch(/at_?ms/i);
  });
});
