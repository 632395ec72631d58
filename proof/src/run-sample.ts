import { runNodeScript, SCRIPT_RUN_CAP_MS } from 'node-sample/dist/run-node-script.js';
import type { SampleRun } from './runtimes.ts';

/** What one sample's run came to. */
export interface SampleOutcome {
  /** The canonical report it printed (empty when it printed none). */
  readonly stdout: string;
  /** All it printed on stderr: its summary, or why it failed. */
  readonly stderr: string;
  /** Its one-line summary, or why it failed. */
  readonly summary: string;
  readonly code: number | null;
  readonly seconds: number;
}

/**
 * What else a sample's run is given.
 *
 * @example
 * await runSample(run, control, { args: ['--overhead'], capMs: 600_000 } satisfies RunSampleOptions);
 */
export interface RunSampleOptions {
  /** More arguments after `--chaos CONTROL_URL` (e.g. `--overhead --quick`). */
  readonly args?: readonly string[];
  /** Default {@link SCRIPT_RUN_CAP_MS}. */
  readonly capMs?: number;
}

/**
 * Runs one runtime's sample against the `mcp-chaos` at `control`, and collects what it printed.
 * A run that outlives its cap ({@link SCRIPT_RUN_CAP_MS}) is stopped (by its PID) and reported as such.
 *
 * @example
 * const outcome = await runSample(SAMPLE_RUNS[0], chaos.control);
 * const overhead = await runSample(SAMPLE_RUNS[1], chaos.control, { args: ['--overhead', '--quick'] });
 */
export async function runSample(run: SampleRun, control: string, { args = [], capMs = SCRIPT_RUN_CAP_MS }: RunSampleOptions = {}): Promise<SampleOutcome> {
  const { stdout, stderr, error, code, seconds } = await runNodeScript(run.script, ['--chaos', control, ...args], capMs);
  return { stdout, stderr, summary: error === undefined ? (stderr.trim().split('\n').at(-1) ?? '') : `${run.runtime}: ${error}`, code, seconds };
}
