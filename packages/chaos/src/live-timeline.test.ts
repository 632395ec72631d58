import { describe, expect, it } from 'vitest';
import type { HelloMessage, LiveEvent } from './live-view/live-schema.ts';
import { describeFault, Timeline } from './live-view/timeline-model.ts';

const FAULTS = { dialect: 'amdahl', idleBudgetMs: null, capacity: null, pendingStatus: [], pendingDrops: [] };
const hello = (over: Partial<HelloMessage> = {}): HelloMessage => ({ type: 'hello', version: 1, atMs: 0, mode: 'legacy', sessions: [], faults: FAULTS, backlog: [], ...over });

describe('Timeline: what the live view draws, from the feed', () => {
  it('puts an initialize on the lane it opened, a call on a dead session on that session\'s lane, and ends lanes with why', () => {
    const timeline = new Timeline();
    const events: LiveEvent[] = [
      { type: 'request', atMs: 10, seq: 1, httpMethod: 'POST', rpcMethod: 'initialize' },
      { type: 'session-opened', atMs: 12, session: 1 },
      { type: 'response', atMs: 13, seq: 1, status: 200, outcome: 'ok', opened: 1 },
      { type: 'fault', atMs: 20, fault: { kind: 'evict', session: 'all' } },
      { type: 'session-ended', atMs: 20, session: 1, reason: 'evicted' },
      { type: 'request', atMs: 30, seq: 2, httpMethod: 'POST', rpcMethod: 'tools/call', session: 1 },
      { type: 'response', atMs: 31, seq: 2, status: 404, outcome: 'session-gone', fault: 'session-gone amdahl' },
      { type: 'request', atMs: 40, seq: 3, httpMethod: 'POST', rpcMethod: 'tools/list', unknownSession: true },
    ];
    for (const event of [hello(), ...events]) timeline.apply(event);
    expect(timeline.calls.get(1)).toMatchObject({ lane: 1, outcome: 'ok' });
    expect(timeline.calls.get(2)).toMatchObject({ lane: 1, outcome: 'session-gone', status: 404 });
    expect(timeline.calls.get(3)).toMatchObject({ lane: 0 });
    expect(timeline.calls.get(3)).not.toHaveProperty('outcome');
    expect(timeline.lanes.get(1)).toEqual({ session: 1, openedAtMs: 12, endedAtMs: 20, reason: 'evicted' });
    expect(timeline.marks).toEqual([{ atMs: 20, fault: { kind: 'evict', session: 'all' } }]);
    expect(timeline.log.map((l) => l.text)).toContain('POST tools/call · session 1 → 404 session-gone (session-gone amdahl)');
    expect(timeline.nowMs).toBe(40);
  });

  it('starts afresh from each hello, with its sessions and backlog, and follows the faults in force', () => {
    const timeline = new Timeline();
    timeline.apply(hello());
    timeline.apply({ type: 'session-opened', atMs: 5, session: 9 });
    timeline.apply(hello({ atMs: 100, sessions: [{ session: 2, openedAtMs: 50 }], backlog: [{ type: 'fault', atMs: 60, fault: { kind: 'dialect', name: 'go-sdk' } }], faults: { ...FAULTS, dialect: 'go-sdk' } }));
    expect([...timeline.lanes.keys()]).toEqual([2]);
    expect(timeline.startMs).toBe(50);
    expect(timeline.inForce?.dialect).toBe('go-sdk');
    timeline.apply({ type: 'fault', atMs: 110, fault: { kind: 'idle-budget', ms: 2000 } });
    timeline.apply({ type: 'fault', atMs: 111, fault: { kind: 'capacity', max: 3 } });
    expect(timeline.inForce).toMatchObject({ idleBudgetMs: 2000, capacity: 3 });
    timeline.apply({ type: 'reset', atMs: 120, faults: FAULTS });
    expect(timeline.inForce).toEqual(FAULTS);
  });

  it('stays bounded on a busy server: the oldest calls, lanes and lines go first', () => {
    const timeline = new Timeline();
    timeline.apply(hello());
    for (let seq = 1; seq <= 5_000; seq++) {
      timeline.apply({ type: 'session-opened', atMs: seq, session: seq });
      timeline.apply({ type: 'request', atMs: seq, seq, httpMethod: 'POST', session: seq });
      timeline.apply({ type: 'response', atMs: seq, seq, status: 200, outcome: 'ok' });
    }
    expect(timeline.calls.size).toBe(2_000);
    expect(timeline.calls.has(5_000)).toBe(true);
    expect(timeline.lanes.size).toBe(60);
    expect(timeline.log.length).toBe(200);
  });

  it('ends at the server\'s orderly stop, and starts again with the next hello', () => {
    const timeline = new Timeline();
    timeline.apply(hello());
    timeline.apply({ type: 'session-opened', atMs: 5, session: 1 });
    timeline.apply({ type: 'stopped', atMs: 900 });
    expect(timeline.stoppedAtMs).toBe(900);
    expect(timeline.nowMs).toBe(900);
    expect(timeline.log.at(-1)).toEqual({ atMs: 900, text: 'the server stopped: nothing more will come' });
    timeline.apply(hello({ atMs: 1_000 }));
    expect(timeline.stoppedAtMs).toBeUndefined();
  });

  it('says a fault in a few words', () => {
    expect(describeFault({ kind: 'status', status: 429, count: 2 })).toBe('status 429 ×2');
    expect(describeFault({ kind: 'restart', downMs: 400 })).toBe('restart, down 400 ms');
    expect(describeFault({ kind: 'idle-budget', ms: null })).toBe('idle budget off');
  });
});
