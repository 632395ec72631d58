// The README's example as a reader runs it: `node app.mjs URL` in its project, lines typed on
// stdin, its stdout and stderr read line by line. Stopped by its PID if it outlives the test.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * How long a wait for its lines (or its exit) may take before it has hung: a minute, as any
 * process's start (the first line comes once it has started, imported the SDK and connected);
 * later ones come within a second.
 */
export const WAIT_CAP_MS = 60_000;

export interface ExampleProcess {
  readonly stdout: readonly string[];
  readonly stderr: readonly string[];
  /** Types one line (and Enter). */
  type(line: string): void;
  /** Resolves once `stream` has printed `count` lines; fails after a minute (hung), showing what was printed. */
  waitForLines(stream: 'stdout' | 'stderr', count: number): Promise<void>;
  /** Ends stdin (Ctrl-D) and resolves with the exit code once it has exited (a minute at most, then hung). */
  end(): Promise<number | null>;
  /** SIGKILL by PID, if it is still running. */
  stop(): void;
}

/**
 * Starts `node <file> <args…>` in `cwd`.
 *
 * @example
 * const app = runExample(dir, 'app.mjs', [url]);
 * app.type('before');
 * await app.waitForLines('stdout', 1);
 */
export function runExample(cwd: string, file: string, args: readonly string[]): ExampleProcess {
  const child = spawn(process.execPath, [file, ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const printed = { stdout: [] as string[], stderr: [] as string[] };
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const changed = new Set<() => void>();
  for (const stream of ['stdout', 'stderr'] as const) {
    createInterface({ input: child[stream] }).on('line', (line) => {
      printed[stream].push(line);
      for (const listener of changed) listener();
    });
  }
  const within = <T>(what: string, promise: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`hung: \`node ${file}\` ${what} within ${WAIT_CAP_MS / 1000} s; printed: ${JSON.stringify(printed)}`)), WAIT_CAP_MS);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  };
  return {
    ...printed,
    type: (line) => child.stdin.write(`${line}\n`),
    waitForLines(stream, count) {
      let listener = () => {};
      const reached = new Promise<void>((resolve, reject) => {
        listener = () => (printed[stream].length >= count ? resolve() : undefined);
        changed.add(listener);
        listener();
        void exited.then((code) => reject(new Error(`exited with ${code} before ${count} lines on ${stream}: ${JSON.stringify(printed)}`)));
      });
      return within(`printed no ${count} lines on ${stream}`, reached).finally(() => changed.delete(listener));
    },
    end() {
      child.stdin.end();
      return within('did not exit', exited);
    },
    stop() {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
    },
  };
}
