import { isNodeLineError } from '@mcp-resilience/node-lines';
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
  /** Why it did not run at all where it cannot (another Node line off linux-x64): no report, and no failure. */
  readonly skipped?: string;
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
 * Runs one runtime's sample against the `mcp-chaos` at `control` (with the run's own Node binary
 * when it names one), and collects what it printed; its summary line is prefixed with the run's
 * name (`node26: 27 scenarios, …`). A run that outlives its cap ({@link SCRIPT_RUN_CAP_MS}) is
 * stopped (by its PID) and reported as such. A Node line that cannot be fetched fails the run,
 * except off linux-x64, where there is none to fetch: that run is `skipped`.
 *
 * @example
 * const outcome = await runSample(SAMPLE_RUNS[0], chaos.control);
 * const overhead = await runSample(SAMPLE_RUNS[1], chaos.control, { args: ['--overhead', '--quick'] });
 */
export async function runSample(run: SampleRun, control: string, { args = [], capMs = SCRIPT_RUN_CAP_MS }: RunSampleOptions = {}): Promise<SampleOutcome> {
  let executable: string | undefined;
  try {
    executable = await run.executable?.();
  } catch (error) {
    const message = `${run.name}: ${(error as Error).message}`;
    const skipped = isNodeLineError(error) && error.code === 'UNSUPPORTED_PLATFORM' ? { skipped: message } : {};
    return { stdout: '', stderr: message, summary: message, code: null, seconds: 0, ...skipped };
  }
  const { stdout, stderr, error, code, seconds } = await runNodeScript(run.script, ['--chaos', control, ...args], capMs, executable);
  const last = stderr.trim().split('\n').at(-1) ?? '';
  const summary = error !== undefined ? `${run.name}: ${error}` : run.name !== run.runtime && last.startsWith(`${run.runtime}: `) ? `${run.name}: ${last.slice(run.runtime.length + 2)}` : last;
  return { stdout, stderr, summary, code, seconds };
}
