import { fileURLToPath } from 'node:url';
import { startProcess } from './start-process.ts';

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

/** Where mcp-chaos listens: its first stdout line, and nothing else may come first. */
function listening(line: string, stream: 'stdout' | 'stderr'): { url: string; control: string } | undefined {
  if (stream === 'stderr') return undefined;
  const { url, control } = JSON.parse(line) as { url?: unknown; control?: unknown };
  if (typeof url !== 'string' || typeof control !== 'string') throw new Error(`not where it listens: ${line}`);
  return { url, control };
}

/**
 * Starts `mcp-chaos` (the package's own bin) in a child process on 127.0.0.1 and a free port,
 * with these extra arguments, and resolves once it has printed where it listens. Stop it with
 * `stop()`, which signals it by its PID. A process that exits first, or says nothing for a
 * minute, is a `ProcessStartError` that shows what it printed.
 *
 * @example
 * const chaos = await startChaosProcess(['--control-origin', 'http://127.0.0.1:5173']);
 * const server = await (await fetch(`${chaos.control}/servers`, { method: 'POST', body: '{}' })).json();
 * await chaos.stop();
 */
export async function startChaosProcess(args: readonly string[] = []): Promise<ChaosProcess> {
  const started = await startProcess(process.execPath, [BIN, '--host', '127.0.0.1', '--port', '0', ...args], { name: 'mcp-chaos', ready: { line: listening } });
  // Once it listens, what it says on stderr (a crash, say) goes on to the caller's stderr.
  started.child.stderr!.on('data', (chunk: string) => process.stderr.write(chunk));
  return { ...started.ready, pid: started.pid, stop: () => started.stop() };
}
