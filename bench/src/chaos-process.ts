import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ChaosState, Fault } from '@mcp-resilience/chaos';

/** A chaos server in a child process, driven through its control API. */
export interface ChaosProcess {
  readonly url: string;
  readonly pid: number;
  applyFaults(faults: readonly Fault[]): Promise<void>;
  state(): Promise<ChaosState>;
  /** Clears faults, ledger and wire log. */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

const CLI = fileURLToPath(new URL('./cli.js', import.meta.resolve('@mcp-resilience/chaos')));

// A benchmark that ends early (an error, SIGTERM) still stops its servers: no orphan keeps a port.
const children = new Set<ChildProcess>();
process.once('exit', () => children.forEach((child) => child.kill('SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(128 + (signal === 'SIGINT' ? 2 : 15)));
const START_WITHIN_MS = 15_000;

async function control(url: string, init?: RequestInit): Promise<unknown> {
  const response = await fetch(url, init);
  const body: unknown = await response.json();
  if (!response.ok) throw new Error(`chaos control ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => (clearTimeout(kill), resolve()));
    child.kill('SIGTERM');
  });
}

/**
 * Starts `mcp-chaos` on 127.0.0.1 in its own process, so that the server's work is not counted
 * in the client's CPU time or heap. Stop it with `stop()` (by its PID).
 *
 * @example
 * const chaos = await startChaosProcess();
 * await chaos.applyFaults([{ kind: 'evict', session: 'all' }]);
 * await chaos.stop();
 */
export async function startChaosProcess(args: readonly string[] = []): Promise<ChaosProcess> {
  const child = spawn(process.execPath, [CLI, '--host', '127.0.0.1', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const lines = createInterface({ input: child.stdout! });
  let timer: NodeJS.Timeout | undefined;
  try {
    const first = await Promise.race([
      new Promise<string>((resolve, reject) => {
        lines.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`mcp-chaos exited with ${code} before it listened`)));
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('mcp-chaos did not start')), START_WITHIN_MS);
      }),
    ]);
    const { url, control: base } = JSON.parse(first) as { url: string; control: string };
    lines.close();
    return {
      url,
      pid: child.pid!,
      applyFaults: async (faults) => void (await control(`${base}/faults`, { method: 'POST', body: JSON.stringify(faults) })),
      state: async () => (await control(`${base}/state`)) as ChaosState,
      reset: async () => void (await control(`${base}/reset`, { method: 'POST' })),
      stop: () => stopChild(child),
    };
  } catch (error) {
    await stopChild(child);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
