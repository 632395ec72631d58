import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

const running = new Set<ChildProcess>();

/**
 * How long a benchmark process may run before it has hung: ten times the slowest one's quiet run
 * (`bench --quick`, about a minute; 48 s with a core kept busy), so that no machine is too busy
 * for it. Test timeouts sit above it.
 */
export const HANG_CAP_MS = 600_000;

/** What a run came to: its exit code, its stdout, and stdout and stderr together. */
export interface NodeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly output: string;
}

/**
 * Runs a built script in a Node process of its own: its exit code, its stdout, and stdout and
 * stderr together. A process still running after {@link HANG_CAP_MS} gets SIGTERM (the scripts
 * stop their chaos servers on it), SIGKILL 5 s later, and the promise rejects saying it hung, with
 * the end of what it printed. Kill what is left with {@link killRunning}.
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
    }, HANG_CAP_MS);
    child.stdout.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), (output += chunk.toString())));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(cap);
      clearTimeout(kill);
      running.delete(child);
      if (hung) reject(new Error(`hung: node ${script} ${args.join(' ')} was still running after ${HANG_CAP_MS / 1000} s (killed); it printed:\n${output.slice(-3000)}`));
      else resolve({ code, stdout, output });
    });
  });
}

/**
 * The JSON a run wrote to `file`; when there is none (or it is not JSON), the error shows how the
 * run ended and the end of what it printed.
 *
 * @example
 * const figures = readWritten<Record<string, number>>(out, await runNode(script, ['--out', out]));
 */
export function readWritten<T>(file: string, run: NodeRun): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}; the run exited ${run.code} and printed:\n${run.output.slice(-3000)}`, { cause: error });
  }
}

/** Ends every process {@link runNode} started that is still running (SIGTERM: they stop their servers). */
export function killRunning(): void {
  for (const child of running) child.kill('SIGTERM');
}
