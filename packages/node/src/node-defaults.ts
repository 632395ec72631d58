import type { ResilientFetchOptions } from '@mcp-resilience/client';
import { publishEvent } from './diagnostics.ts';
import { nodeSleep } from './node-sleep.ts';
import { createEventLogger, type LogOption } from './stderr-logger.ts';

/** What `@mcp-resilience/node` adds to the engine's options. */
export interface NodeOptions {
  /** Log one human line per event: `true` to stderr, or to a function of your own. Off by default. */
  readonly log?: LogOption;
}

/**
 * The engine's options with Node defaults: an unref'd `sleep` (unless one is given), and an
 * `onEvent` that publishes every event on `diagnostics_channel`, logs it when `log` asks for
 * that, and then hands it to the application's own `onEvent`.
 *
 * @example
 * import { createResilientFetch } from '@mcp-resilience/client';
 * const fetch = createResilientFetch(withNodeDefaults({ log: true, onEvent: record }));
 */
export function withNodeDefaults<T extends ResilientFetchOptions & NodeOptions>(options: T): Omit<T, 'log'> {
  const { log, ...rest } = options;
  const logger = createEventLogger(log);
  const own = rest.onEvent;
  return {
    ...rest,
    sleep: rest.sleep ?? nodeSleep,
    onEvent: (event) => {
      publishEvent(event);
      logger?.(event);
      own?.(event);
    },
  };
}
