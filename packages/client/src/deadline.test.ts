import { describe, expect, it } from 'vitest';
import { withDeadline } from './deadline.ts';

describe('withDeadline', () => {
  it('aborts the work with a TimeoutError once the time is up', async () => {
    const error = await withDeadline(10, (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('TimeoutError');
  });

  it('leaves no timer behind when the work ends first', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    let seen: AbortSignal | undefined;
    await expect(withDeadline(60_000, async (signal) => ((seen = signal), 'done'))).resolves.toBe('done');
    expect(timers()).toBe(before);
    expect(seen?.aborted).toBe(false);
  });
});
