import { spawn } from 'node:child_process';
import type { SampleRun } from './runtimes.ts';

/** What one sample's run came to. */
export interface SampleOutcome {
  /** The canonical report it printed (empty when it printed none). */
  readonly stdout: string;
  /** Its one-line summary, or why it failed. */
  readonly summary: string;
  readonly code: number | null;
  readonly seconds: number;
}

/** A whole corpus in one runtime takes a minute or two here; five is a hang. */
export const SAMPLE_RUN_CAP_MS = 300_000;

/**
 * What else a sample's run is given.
 *
 * @example
 * await runSample(run, control, { args: ['--overhead'], capMs: 600_000 } satisfies RunSampleOptions);
 */
export interface RunSampleOptions {
  /** More arguments after `--chaos CONTROL_URL` (e.g. `--overhead --quick`). */
  readonly args?: readonly string[];
  /** Default {@link SAMPLE_RUN_CAP_MS}. */
  readonly capMs?: number;
}

/**
 * Runs one runtime's sample against the `mcp-chaos` at `control`, and collects what it printed.
 * A run that outlives its cap ({@link SAMPLE_RUN_CAP_MS}) is stopped (by its PID) and reported as such.
 *
 * @example
 * const outcome = await runSample(SAMPLE_RUNS[0], chaos.control);
 * const overhead = await runSample(SAMPLE_RUNS[1], chaos.control, { args: ['--overhead', '--quick'] });
 */
export function runSample(run: SampleRun, control: string, { args = [], capMs = SAMPLE_RUN_CAP_MS }: RunSampleOptions = {}): Promise<SampleOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [run.script, '--chaos', control, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const cap = setTimeout(() => {
      stderr += `\nstopped after ${capMs / 1000} s`;
      child.kill('SIGKILL');
    }, capMs);
    let settled = false;
    const done = (code: number | null, failure?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(cap);
      const lines = (failure ?? stderr).trim().split('\n');
      resolve({ stdout, summary: lines.at(-1) ?? '', code, seconds: (performance.now() - started) / 1000 });
    };
    child.once('error', (error) => done(null, `${run.runtime}: ${error.message}`));
    child.once('close', (code) => done(code));
  });
}
