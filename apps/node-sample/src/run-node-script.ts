import { spawn } from 'node:child_process';
import { describeOutput } from '@mcp-resilience/chaos/process';

/** What a script run came to. */
export interface ScriptRun {
  readonly code: number | null;
  readonly stdout: string;
  /** What it wrote on stderr, and that it was stopped at its cap. */
  readonly stderr: string;
  /** Why it could not start (the spawn's error), when it could not. */
  readonly error?: string;
  readonly seconds: number;
}

/** A sample's whole corpus takes a minute or two here; five is a hang. */
export const SCRIPT_RUN_CAP_MS = 300_000;

/**
 * Runs `node script ...args` and collects what it printed: with this process's Node, or with the
 * Node binary `executable` names (e.g. another Node line's, from `@mcp-resilience/node-lines`). A
 * run that outlives `capMs` has hung: it is stopped (by its PID) and says so on its stderr.
 *
 * @example
 * const { code, stdout } = await runNodeScript('apps/node-sample/dist/main.js', ['--chaos', control]);
 * const on26 = await runNodeScript('apps/node-sample/dist/main.js', ['--chaos', control], SCRIPT_RUN_CAP_MS, await nodeBinary(26));
 */
export function runNodeScript(script: string, args: readonly string[], capMs = SCRIPT_RUN_CAP_MS, executable = process.execPath): Promise<ScriptRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(executable, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const cap = setTimeout(() => {
      stderr += `\nhung: stopped after ${capMs / 1000} s`;
      child.kill('SIGKILL');
    }, capMs);
    let settled = false;
    const done = (code: number | null, error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(cap);
      resolve({ code, stdout, stderr, ...(error === undefined ? {} : { error }), seconds: (performance.now() - started) / 1000 });
    };
    child.once('error', (error) => done(null, error.message));
    child.once('close', (code) => done(code));
  });
}

/**
 * What `read` makes of a run's stdout (a report, JSON); when it cannot, the error says why and
 * shows what the run printed, its exit code and the end of its stdout and stderr.
 *
 * @example
 * const report = readOutput(await runNodeScript(main, [dir]), parseReport);
 */
export function readOutput<T>(run: ScriptRun, read: (stdout: string) => T): T {
  try {
    return read(run.stdout);
  } catch (error) {
    throw new Error(`${(error as Error).message}; the run exited ${run.code}${run.error ? ` (${run.error})` : ''} and printed\n${describeOutput(run)}`, { cause: error });
  }
}
