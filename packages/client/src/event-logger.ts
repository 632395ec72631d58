import type { ResilienceEvent } from '@mcp-resilience/core';
import { describeEvent } from './describe-event.ts';

/** The `log` option: `true` writes to the runtime's log, a function receives each line (no newline). */
export type LogOption = boolean | ((line: string) => void);

/**
 * The opt-in logger: one human line per event (see {@link describeEvent}), never a session id.
 * `log: true` writes with `writeLine`, which each runtime's adapter supplies (stderr on Node);
 * the default is `console.error`. Returns `undefined` when logging is off.
 *
 * @example
 * const log = createEventLogger(true); // logs 'mcp-resilience session 1 started (revision 2025-11-25)'
 * log?.({ type: 'session-started', session: 1, revision: '2025-11-25' });
 */
export function createEventLogger(
  log: LogOption | undefined, writeLine: (line: string) => void = (line) => console.error(line),
): ((event: ResilienceEvent) => void) | undefined {
  if (log === undefined || log === false) return undefined;
  const write = log === true ? writeLine : log;
  return (event) => write(describeEvent(event));
}
