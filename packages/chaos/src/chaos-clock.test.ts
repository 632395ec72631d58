import { describe, expect, it } from 'vitest';
import { manualClock, REAL_CLOCK } from './chaos-clock.ts';

describe('manualClock', () => {
  it('stands still until advanced, then runs the timers due in the order of their times, those they set too', async () => {
    const clock = manualClock(1_000);
    const ran: string[] = [];
    clock.after(300, () => ran.push(`b@${clock.now()}`));
    clock.after(100, () => (ran.push(`a@${clock.now()}`), clock.after(100, () => ran.push(`a2@${clock.now()}`))));
    clock.after(900, () => ran.push('late'));
    expect([clock.now(), ran, clock.pending]).toEqual([1_000, [], 3]);
    await clock.advance(300);
    expect(ran).toEqual(['a@1100', 'a2@1200', 'b@1300']);
    expect([clock.now(), clock.pending]).toEqual([1_300, 1]);
  });

  it('awaits what a timer returns, and runs no timer that was cancelled', async () => {
    const clock = manualClock();
    let listening = false;
    clock.after(10, () => new Promise<void>((resolve) => setImmediate(() => ((listening = true), resolve()))));
    const cancel = clock.after(5, () => expect.fail('cancelled'));
    cancel();
    await clock.advance(10);
    expect(listening).toBe(true);
    expect(clock.pending).toBe(0);
  });
});

describe('REAL_CLOCK', () => {
  it('reads the wall clock, and its timers can be cancelled', () => {
    const before = Date.now();
    const now = REAL_CLOCK.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
    REAL_CLOCK.after(10, () => expect.fail('cancelled'))();
  });
});
