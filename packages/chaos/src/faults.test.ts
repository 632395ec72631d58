import { describe, expect, it } from 'vitest';
import { ChaosInputError, parseFault, parseFaults, parseSchedule } from './faults.ts';

describe('parseFault', () => {
  it('reads every kind, filling defaults', () => {
    expect(parseFault({ kind: 'evict' })).toEqual({ kind: 'evict', session: 'all' });
    expect(parseFault({ kind: 'evict', session: 2 })).toEqual({ kind: 'evict', session: 2 });
    expect(parseFault({ kind: 'restart' })).toEqual({ kind: 'restart' });
    expect(parseFault({ kind: 'idle-budget', ms: null })).toEqual({ kind: 'idle-budget', ms: null });
    expect(parseFault({ kind: 'capacity', max: 2 })).toEqual({ kind: 'capacity', max: 2 });
    expect(parseFault({ kind: 'status', status: 429, retryAfter: '-1' })).toEqual({ kind: 'status', status: 429, count: 1, retryAfter: '-1' });
    expect(parseFault({ kind: 'drop-stream' })).toEqual({ kind: 'drop-stream', afterEvents: 0, eventIds: true, count: 1 });
    expect(parseFault({ kind: 'drop-stream', eventIds: false, retryMs: 50 })).toMatchObject({ eventIds: false, retryMs: 50 });
    expect(parseFault({ kind: 'refuse', ms: 500 })).toEqual({ kind: 'refuse', ms: 500 });
    expect(parseFault({ kind: 'dialect', name: 'amdahl' })).toEqual({ kind: 'dialect', name: 'amdahl' });
    expect(parseFault({ kind: 'change-resource', text: '7' })).toEqual({ kind: 'change-resource', text: '7' });
    expect(parseFault({ kind: 'forget-tasks' })).toEqual({ kind: 'forget-tasks' });
  });

  it.each([
    [null, /object/], [[], /object/], [{ kind: 'nope' }, /unknown fault kind/],
    [{ kind: 'evict', session: 0 }, /session/], [{ kind: 'evict', session: 'some' }, /session/],
    [{ kind: 'status', status: 200 }, /status/], [{ kind: 'status', status: 429, count: 0 }, /count/],
    [{ kind: 'status', status: 429, retryAfter: 'a\nb' }, /retryAfter/], [{ kind: 'status', status: 429, retryAfter: 5 }, /retryAfter/],
    [{ kind: 'refuse', ms: -1 }, /ms/], [{ kind: 'refuse', ms: 1e9 }, /ms/], [{ kind: 'refuse' }, /ms/],
    [{ kind: 'capacity', max: 0 }, /max/], [{ kind: 'idle-budget', ms: 1.5 }, /ms/],
    [{ kind: 'dialect', name: 'cobol' }, /dialect/], [{ kind: 'drop-stream', afterEvents: -1 }, /afterEvents/],
  ])('rejects %j', (value, message) => {
    expect(() => parseFault(value)).toThrow(ChaosInputError);
    expect(() => parseFault(value)).toThrow(message);
  });
});

describe('parseFaults and parseSchedule', () => {
  it('take one fault or a list', () => {
    expect(parseFaults({ kind: 'restart' })).toEqual([{ kind: 'restart' }]);
    expect(parseFaults([{ kind: 'restart' }, { kind: 'evict', session: 'newest' }])).toHaveLength(2);
  });

  it('orders a schedule by time and checks each entry', () => {
    const schedule = parseSchedule([{ atMs: 500, fault: { kind: 'restart' } }, { atMs: 100, fault: { kind: 'evict' } }]);
    expect(schedule.map((s) => s.atMs)).toEqual([100, 500]);
    expect(() => parseSchedule({})).toThrow(/list/);
    expect(() => parseSchedule([{ atMs: -5, fault: { kind: 'restart' } }])).toThrow(/atMs/);
    expect(() => parseSchedule([{ atMs: 5, fault: { kind: 'x' } }])).toThrow(/unknown/);
  });
});
