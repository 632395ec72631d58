import { describe, expect, it } from 'vitest';
import { DEFAULT_PORTS, resolvePorts } from './ports.ts';

describe('the default ports', () => {
  it('bound work with a TimeoutError once the time is up', async () => {
    const error = await DEFAULT_PORTS.deadline(10, (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('TimeoutError');
  });

  it('leave no timer behind when the work ends first', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const before = timers();
    let seen: AbortSignal | undefined;
    await expect(DEFAULT_PORTS.deadline(60_000, async (signal) => ((seen = signal), 'done'))).resolves.toBe('done');
    expect(timers()).toBe(before);
    expect(seen?.aborted).toBe(false);
  });

  it('say "maybe sent" of any failed fetch: only a runtime knows its own refusal', async () => {
    const refused = await fetch('http://127.0.0.1:1/').then(() => undefined, (e: unknown) => e);
    expect(DEFAULT_PORTS.notSent(refused)).toBe(false);
  });

  it('end a sleep early with the signal\'s reason', async () => {
    const controller = new AbortController();
    const sleeping = DEFAULT_PORTS.sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
  });

  it('are filled in where none is given', () => {
    const sleep = async () => {};
    const ports = resolvePorts({ sleep, now: undefined });
    expect(ports.sleep).toBe(sleep);
    expect(ports.now).toBe(DEFAULT_PORTS.now);
    expect(ports.sessionStore).toBeUndefined();
  });
});
