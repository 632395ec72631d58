import { REAL_CLOCK, type ChaosClock } from './chaos-clock.ts';
import type { ExecutionLedger } from './ledger.ts';

/** The longest the `slow` tool will take, whatever it is asked. */
export const SLOW_MAX_MS = 60_000;

/**
 * The chaos server's tools, independent of the SDK line that serves them: each backend
 * registers these with its SDK. Annotations say what a replay policy would want to know.
 * - `echo`: read-only; `add`: idempotent; `record`: neither (each run counts in the ledger);
 * - `slow`: takes `ms`, reporting progress `steps` times (for faults in the middle of a call);
 * - `job`: `slow` as a task (`execution.taskSupport: optional`), each run counted like `record`.
 */
export const TOOL_ANNOTATIONS = {
  echo: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  add: { readOnlyHint: false, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  record: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  slow: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  job: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
} as const;

/** The `pollInterval` a `job` task suggests unless its call asks for another (`pollMs`). */
export const JOB_POLL_MS = 200;

/** The text result of `echo`. */
export const echo = (text: string): string => text;

/** The text result of `add`. */
export const add = (a: number, b: number): string => String(a + b);

/** Runs `record`: counts one execution under `key`; its text result names the count. */
export const record = (ledger: ExecutionLedger, key: string): string => `executions of ${key}: ${ledger.record(key)}`;

/**
 * Runs `slow`: waits `ms` (capped at {@link SLOW_MAX_MS}) on `clock` in `steps` equal parts,
 * calling `progress(done, total)` after each, and stops early when `signal` aborts. Every part's
 * time is set at the start, so a clock moved on by `ms` at once has let all of them pass.
 *
 * @example
 * await slow(300, 3, (done, total) => sendProgress(done, total), signal); // 'slept 300 ms'
 */
export async function slow(
  ms: number,
  steps: number,
  progress: (done: number, total: number) => Promise<void>,
  signal?: AbortSignal,
  clock: ChaosClock = REAL_CLOCK,
): Promise<string> {
  const total = Math.min(Math.max(Math.trunc(ms), 0), SLOW_MAX_MS);
  const parts = Math.min(Math.max(Math.trunc(steps), 1), 100);
  const cancels: (() => void)[] = [];
  let onAbort = () => {};
  const aborted = new Promise<void>((resolve) => (onAbort = resolve));
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const due = Array.from({ length: parts }, (_, i) => new Promise<void>((resolve) => cancels.push(clock.after((total * (i + 1)) / parts, resolve))));
  try {
    for (let done = 1; done <= parts; done++) {
      await Promise.race([due[done - 1], aborted]);
      if (signal?.aborted) return `aborted after ${done - 1} of ${parts} steps`;
      await progress(done, parts);
    }
    return `slept ${total} ms`;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    for (const cancel of cancels) cancel();
  }
}
