import { describe, expect, it } from 'vitest';
import { startChaosProcess } from './chaos-process.ts';
import { START_CAP_MS } from './start-process.ts';
import { alive } from './test-support/alive.ts';

describe('startChaosProcess', { timeout: START_CAP_MS + 30_000 }, () => {
  it('starts mcp-chaos as a process of its own, serving, and stops it by its PID', async () => {
    const chaos = await startChaosProcess(['--dialect', 'amdahl']);
    try {
      expect(chaos.pid).not.toBe(process.pid);
      expect(alive(chaos.pid)).toBe(true);
      const state = (await (await fetch(`${chaos.control}/state`)).json()) as { faults: { dialect: string } };
      expect(state.faults.dialect).toBe('amdahl');
    } finally {
      await chaos.stop();
    }
    expect(alive(chaos.pid)).toBe(false);
    await expect(fetch(`${chaos.control}/state`)).rejects.toThrow();
  });

  it('fails, leaving no process behind, when mcp-chaos refuses its arguments, showing what it said', async () => {
    const failed = await startChaosProcess(['--dialect', 'cobol']).then(() => undefined, (error: Error & { pid?: number }) => error);
    expect(failed?.message).toMatch(/^mcp-chaos \(.*mcp-chaos\.js --host 127\.0\.0\.1 --port 0 --dialect cobol\) did not start: exited \(2\) before it was ready\nstdout: \(nothing\)\nstderr:\nmcp-chaos: --dialect must be one of /);
    expect(alive(failed!.pid!)).toBe(false);
  });
});
