import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

const running = new Set<ChildProcess>();

/**
 * How long a run may take before it has hung: with a core kept busy beside them, the quick
 * benchmarks took 48 s, the runtimes' 25 s, the short soak 24 s (paced to 23 s); ten minutes is a hang.
 */
export const RUN_CAP_MS = 600_000;

/** What a run came to: its exit code, its stdout, and stdout and stderr together (with "hung: …" when it was stopped at its cap). */
export interface NodeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly output: string;
}

/**
 * Runs a built script in a Node process of its own: its exit code, its stdout, and stdout and
 * stderr together. One still running after {@link RUN_CAP_MS} has hung: it gets SIGTERM (it stops
 * its servers), SIGKILL 5 s later, and its output ends with `hung: stopped after 600 s`. Kill what
 * is left with {@link killRunning} (a test that timed out).
 *
 * @example
 * const { code, stdout } = await runNode(script, ['--quick'], ['--no-warnings']);
 */
export function runNode(script: string, args: readonly string[], nodeArgs: readonly string[] = []): Promise<NodeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    let stdout = '';
    let output = '';
    let hung = false;
    let kill: NodeJS.Timeout | undefined;
    const cap = setTimeout(() => {
      hung = true;
      child.kill('SIGTERM');
      kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    }, RUN_CAP_MS);
    child.stdout.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), (output += chunk.toString())));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(cap);
      clearTimeout(kill);
      running.delete(child);
      resolve({ code, stdout, output: hung ? `${output}\nhung: stopped after ${RUN_CAP_MS / 1000} s` : output });
    });
  });
}

/**
 * The JSON a run wrote to `file`; when there is none (or it is not JSON), the error shows what the
 * run printed and how it ended.
 *
 * @example
 * const figures = readWritten<Record<string, number>>(out, await runNode(script, ['--out', out]));
 */
export function readWritten<T>(file: string, run: NodeRun): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}; the run exited ${run.code} and printed:\n${run.output.slice(-8_000)}`, { cause: error });
  }
}

/** Ends every process {@link runNode} started that is still running (SIGTERM: they stop their servers). */
export function killRunning(): void {
  for (const child of running) child.kill('SIGTERM');
}
