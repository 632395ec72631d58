import { describe, expect, it } from 'vitest';
import { callTool, describeOutcome, meets } from './call-outcome.ts';
import { defaultSleep, HangError, within } from './deadline.ts';
import type { ScenarioClient } from './host.ts';

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('within: the deadline of every call, on the timer port', () => {
  it('passes the work\'s answer or failure through, and clears its timer at once', async () => {
    const before = timers();
    expect(await within(Promise.resolve(7), 60_000, defaultSleep, 'x')).toBe(7);
    await expect(within(Promise.reject(new Error('said no')), 60_000, defaultSleep, 'x')).rejects.toThrow('said no');
    expect(timers()).toBe(before);
  });

  it('rejects with a HangError when the work neither answers nor fails in time', async () => {
    await expect(within(new Promise(() => {}), 20, defaultSleep, 'tools/call slow')).rejects.toThrow(HangError);
    await expect(within(new Promise(() => {}), 20, defaultSleep, 'tools/call slow')).rejects.toThrow('tools/call slow: no answer and no failure within 0.02 s');
  });

  it('waits on the host\'s port, not on a timer of its own', async () => {
    const asked: number[] = [];
    const port = (ms: number) => (asked.push(ms), Promise.resolve());
    await expect(within(new Promise(() => {}), 1234, port, 'x')).rejects.toThrow(HangError);
    expect(asked).toEqual([1234]);
  });
});

describe('a call that hangs', () => {
  it('is "hung", which no expectation accepts, not even "rejected"', async () => {
    const silent = { callTool: () => new Promise(() => {}) } as unknown as ScenarioClient;
    const quick = (_ms: number, signal?: AbortSignal) => defaultSleep(5, signal);
    const outcome = await callTool(silent, { tool: 'slow', arguments: {} }, quick);
    expect(outcome).toMatchObject({ ok: false, error: 'hung' });
    for (const expectation of ['ok', { error: 'rejected' }, { error: 'OUTCOME_UNKNOWN' }, { text: '' }] as const) expect(meets(outcome, expectation)).toBe(false);
    expect(describeOutcome(outcome)).toMatch(/^error hung \(tools\/call slow: no answer and no failure within 10 s\)$/);
  });
});
