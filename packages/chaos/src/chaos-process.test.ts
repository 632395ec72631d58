import { describe, expect, it } from 'vitest';
import { startChaosProcess } from './chaos-process.ts';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('startChaosProcess', () => {
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

  it('fails, leaving no process behind, when mcp-chaos refuses its arguments', async () => {
    await expect(startChaosProcess(['--dialect', 'cobol'])).rejects.toThrow(/exited with 2/);
  });
});
