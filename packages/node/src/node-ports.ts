import { clearTimeout, setTimeout } from 'node:timers';
import { deadlineWith, sleepWith, type Deadline, type Sleep } from '@mcp-resilience/client/adapter';

/**
 * The engine's wait on Node: an `unref()`ed timer, so a pending backoff never keeps the process
 * alive, ending early (rejecting with the signal's reason) when `signal` aborts.
 *
 * @example
 * await nodeSleep(1_000, controller.signal); // does not hold the process open
 */
export const nodeSleep: Sleep = sleepWith((run, ms) => setTimeout(run, ms).unref(), clearTimeout);

/**
 * The deadline of the engine's own requests on Node, on an `unref()`ed timer.
 *
 * @example
 * await nodeDeadline(20_000, (signal) => fetch(url, { signal }));
 */
export const nodeDeadline: Deadline = deadlineWith((run, ms) => setTimeout(run, ms).unref(), clearTimeout);

/**
 * Whether a failed fetch provably sent nothing, as Node's fetch (undici) says it: a refused
 * connection (`cause.code` `ECONNREFUSED`). Anything else may have reached the server.
 *
 * @example
 * await fetch('http://127.0.0.1:1/').catch((error) => refusedBeforeSending(error)) // true
 */
export function refusedBeforeSending(error: unknown): boolean {
  return (error as { cause?: { code?: unknown } } | undefined)?.cause?.code === 'ECONNREFUSED';
}

/** Where `log: true` writes on Node: stderr, one line per event. */
export const writeStderrLine = (line: string): void => void process.stderr.write(`${line}\n`);
