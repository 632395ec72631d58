import { spawn, type ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();

/**
 * Runs a built script in a Node process of its own: its exit code, its stdout, and stdout and
 * stderr together. Kill what is left with {@link killRunning} (a test that timed out).
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
    child.stdout.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), (output += chunk.toString())));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (running.delete(child), resolve({ code, stdout, output })));
  });
}

/** Ends every process {@link runNode} started that is still running (SIGTERM: they stop their servers). */
export function killRunning(): void {
  for (const child of running) child.kill('SIGTERM');
}
