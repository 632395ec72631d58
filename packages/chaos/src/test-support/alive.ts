/**
 * Whether a process of this PID is still running (signal 0 asks without sending anything).
 *
 * @example
 * await server.stop();
 * expect(alive(pid)).toBe(false);
 */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
