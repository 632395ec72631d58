import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** An `mcp-chaos` process: where it listens, its PID, and how to stop it. */
export interface ChaosProcess {
  /** The MCP endpoint of its own server. */
  readonly url: string;
  /** Its control API: faults, state, and the pool (`POST {control}/servers`). */
  readonly control: string;
  readonly pid: number;
  /** SIGTERM by PID (SIGKILL after 5 s); resolves once the process has exited. */
  stop(): Promise<void>;
}

const BIN = fileURLToPath(new URL('../bin/mcp-chaos.js', import.meta.url));
const START_WITHIN_MS = 25_000; // a loaded 2-core machine was seen to need more than 15 s

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => process.kill(child.pid!, 'SIGKILL'), 5_000);
    child.once('exit', () => (clearTimeout(kill), resolve()));
    process.kill(child.pid!, 'SIGTERM');
  });
}

/**
 * Starts `mcp-chaos` (the package's own bin) in a child process on 127.0.0.1 and a free port,
 * with these extra arguments, and resolves once it has printed where it listens. Stop it with
 * `stop()`, which signals it by its PID. A process that exits or stays silent for 25 s first
 * is an error.
 *
 * @example
 * const chaos = await startChaosProcess(['--control-origin', 'http://127.0.0.1:5173']);
 * const server = await (await fetch(`${chaos.control}/servers`, { method: 'POST', body: '{}' })).json();
 * await chaos.stop();
 */
export async function startChaosProcess(args: readonly string[] = []): Promise<ChaosProcess> {
  const child = spawn(process.execPath, [BIN, '--host', '127.0.0.1', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  let timer: NodeJS.Timeout | undefined;
  try {
    const first = await Promise.race([
      new Promise<string>((resolve, reject) => {
        lines.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`mcp-chaos exited with ${code} before it listened`)));
        child.once('error', reject);
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`mcp-chaos did not start within ${START_WITHIN_MS} ms`)), START_WITHIN_MS);
      }),
    ]);
    lines.close();
    const { url, control } = JSON.parse(first) as { url: string; control: string };
    return { url, control, pid: child.pid!, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
