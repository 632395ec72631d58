import { spawn, type ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();

/**
 * How long a benchmark process may run before it has hung: ten times the slowest one's quiet run
 * (`bench --quick`, about a minute), so that no machine is too busy for it. Test timeouts sit above it.
 */
export const HANG_CAP_MS = 600_000;

/**
 * Runs a built script in a Node process of its own: its exit code, its stdout, and stdout and
 * stderr together. A process still running after {@link HANG_CAP_MS} is killed, and the promise
 * rejects saying it hung, with the end of what it printed. Kill what is left with {@link killRunning}.
 *
 * @example
 * const { code, stdout } = await runNode(script, ['--quick'], ['--no-warnings']);
 */
export function runNode(script: string, args: readonly string[], nodeArgs: readonly string[] = []): Promise<{ code: number | null; stdout: string; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let stdout = '';
    let output = '';
    let hung = false;
    const cap = setTimeout(() => ((hung = true), child.kill('SIGKILL')), HANG_CAP_MS);
    child.stdout.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), (output += chunk.toString())));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(cap);
      running.delete(child);
      if (hung) reject(new Error(`hung: node ${script} ${args.join(' ')} was still running after ${HANG_CAP_MS / 1000} s (killed); it printed:\n${output.slice(-3000)}`));
      else resolve({ code, stdout, output });
    });
  });
}

/** Ends every process {@link runNode} started that is still running (SIGTERM: they stop their servers). */
export function killRunning(): void {
  for (const child of running) child.kill('SIGTERM');
}
