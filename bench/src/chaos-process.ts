import { startChaosProcess as startProcess, type ChaosState, type Fault } from '@mcp-resilience/chaos';

/** A chaos server in a child process, driven through its control API. */
export interface ChaosProcess {
  readonly url: string;
  /** Its control API: faults, state, and the pool (`POST {control}/servers`). */
  readonly control: string;
  readonly pid: number;
  applyFaults(faults: readonly Fault[]): Promise<void>;
  state(): Promise<ChaosState>;
  /** Clears faults, ledger and wire log. */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

// A benchmark that ends early (an error, SIGTERM) still stops its servers, by PID: no orphan keeps a port.
const running = new Set<number>();
process.once('exit', () => running.forEach((pid) => {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(128 + (signal === 'SIGINT' ? 2 : 15)));

async function control(url: string, init?: RequestInit): Promise<unknown> {
  const response = await fetch(url, init);
  const body: unknown = await response.json();
  if (!response.ok) throw new Error(`chaos control ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * Starts `mcp-chaos` on 127.0.0.1 in its own process (the chaos package's `startChaosProcess`),
 * so that the server's work is not counted in the client's CPU time or heap, with its control
 * API at hand. Stop it with `stop()` (by its PID).
 *
 * @example
 * const chaos = await startChaosProcess();
 * await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
 * await chaos.stop();
 */
export async function startChaosProcess(args: readonly string[] = []): Promise<ChaosProcess> {
  const child = await startProcess(args);
  running.add(child.pid);
  return {
    url: child.url,
    control: child.control,
    pid: child.pid,
    applyFaults: async (faults) => void (await control(`${child.control}/faults`, { method: 'POST', body: JSON.stringify(faults) })),
    state: async () => (await control(`${child.control}/state`)) as ChaosState,
    reset: async () => void (await control(`${child.control}/reset`, { method: 'POST' })),
    stop: () => child.stop().finally(() => running.delete(child.pid)),
  };
}
