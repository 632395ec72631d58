import type { ResilienceEvent } from '@mcp-resilience/client';
import { describeEvent } from './describe-event.ts';

/** The `log` option: `true` writes to stderr, a function receives each line (no newline). */
export type LogOption = boolean | ((line: string) => void);

/**
 * The opt-in logger: one human line per event (see {@link describeEvent}), never a session id.
 * Returns `undefined` when logging is off.
 *
 * @example
 * const log = createEventLogger(true); // writes 'mcp-resilience session 1 started (revision 2025-11-25)\n' to stderr
 * log?.({ type: 'session-started', session: 1, revision: '2025-11-25' });
 */
export function createEventLogger(log: LogOption | undefined): ((event: ResilienceEvent) => void) | undefined {
  if (log === undefined || log === false) return undefined;
  const write = log === true ? (line: string) => void process.stderr.write(`${line}\n`) : log;
  return (event) => write(describeEvent(event));
}
