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
 * Runs `slow`: waits `ms` (capped at {@link SLOW_MAX_MS}) in `steps` equal parts, calling
 * `progress(done, total)` after each, and stops early when `signal` aborts.
 *
 * @example
 * await slow(300, 3, (done, total) => sendProgress(done, total), signal); // 'slept 300 ms'
 */
export async function slow(
  ms: number,
  steps: number,
  progress: (done: number, total: number) => Promise<void>,
  signal?: AbortSignal,
): Promise<string> {
  const total = Math.min(Math.max(Math.trunc(ms), 0), SLOW_MAX_MS);
  const parts = Math.min(Math.max(Math.trunc(steps), 1), 100);
  for (let done = 1; done <= parts; done++) {
    await new Promise<void>((resolve) => {
      const onAbort = () => (clearTimeout(timer), resolve());
      const timer = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve()), total / parts);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    if (signal?.aborted) return `aborted after ${done - 1} of ${parts} steps`;
    await progress(done, parts);
  }
  return `slept ${total} ms`;
}
