/**
 * @mcp-resilience/client/adapter — what a runtime adapter (`@mcp-resilience/node`, `/deno`,
 * `/cloudflare`, `/browser`) builds on: the ports the engine asks of its runtime, their
 * defaults, and the one helper that fills them and fans events out.
 *
 * @example
 * import { withRuntimeDefaults } from '@mcp-resilience/client/adapter';
 * export const createResilientFetch = (options = {}) => engineFetch(withRuntimeDefaults(options, { sleep: unrefSleep }));
 *
 * @module
 */
import type { ResilienceEvent } from '@mcp-resilience/core';
import type { ResilientFetchOptions } from './options.ts';
import { DEFAULT_PORTS, type EnginePorts } from './ports.ts';

export { deadlineWith, DEFAULT_PORTS, defaultSleep, resolvePorts, sleepWith, type Deadline, type EnginePorts, type RuntimePorts, type Sleep } from './ports.ts';
export { middlewareOf } from './middleware.ts';
export { createEventLogger, type LogOption } from './event-logger.ts';
export { CREDENTIAL_HEADERS, storableHeaders } from './credentials.ts';
export { storableSession } from './session-store.ts';
export { sessionStoreKey } from './store-key.ts';

/**
 * What a runtime brings: its ports, where `log: true` writes, and sinks told of every event.
 * Any left out keeps the engine's default; an adapter declares them all ({@link AdapterRuntime}).
 *
 * @example
 * const runtime: RuntimeDefaults = { sleep: unrefSleep, writeLine: (line) => process.stderr.write(`${line}\n`) };
 */
export interface RuntimeDefaults extends Partial<Omit<EnginePorts, 'onEvent'>> {
  /** Where `log: true` writes a line (stderr on Node); default `console.error`. */
  readonly writeLine?: (line: string) => void;
  /** Told of every event before the application's own `onEvent` (a `diagnostics_channel`, say); one that throws does not stop the others. */
  readonly sinks?: readonly ((event: ResilienceEvent) => void)[];
}

/**
 * One runtime's facts as data, every key given: the same keys for Node, Deno, Workers and
 * browsers, so that what differs between runtimes is read in one object of each adapter. The
 * session store is not among them: it is the application's choice (or the adapter's option).
 *
 * @example
 * export const myRuntime: AdapterRuntime = { ...DEFAULT_RUNTIME, sleep: unrefSleep, notSent: refusedBeforeSending, sinks: [publish] };
 * export const createResilientFetch = (options = {}) => engineFetch(withRuntimeDefaults(options, myRuntime));
 */
export interface AdapterRuntime extends Required<Omit<RuntimeDefaults, 'sessionStore'>> {}

/**
 * The runtime every platform has: the engine's default ports ({@link DEFAULT_PORTS}), `log: true`
 * written with `console.error`, no sinks. An adapter starts from it and says what its runtime does otherwise.
 *
 * @example
 * const runtime: AdapterRuntime = { ...DEFAULT_RUNTIME, headersHidden: corsHidesHeaders };
 */
export const DEFAULT_RUNTIME: AdapterRuntime = Object.freeze({
  now: DEFAULT_PORTS.now,
  random: DEFAULT_PORTS.random,
  sleep: DEFAULT_PORTS.sleep,
  deadline: DEFAULT_PORTS.deadline,
  notSent: DEFAULT_PORTS.notSent,
  headersHidden: DEFAULT_PORTS.headersHidden,
  background: DEFAULT_PORTS.background,
  writeLine: (line: string) => console.error(line),
  sinks: Object.freeze([]),
});

/**
 * The engine's options with a runtime's defaults: each port the application did not set is
 * the runtime's, `log: true` writes where the runtime writes, and every event goes to the
 * runtime's sinks, then to the application's `onEvent`.
 *
 * @example
 * const options = withRuntimeDefaults({ log: true }, { sleep: unrefSleep, writeLine: (line) => process.stderr.write(`${line}\n`) });
 */
export function withRuntimeDefaults<T extends ResilientFetchOptions>(options: T, runtime: RuntimeDefaults): T {
  const { writeLine, sinks = [], ...ports } = runtime;
  const filled: Record<string, unknown> = { ...(options as Record<string, unknown>) };
  for (const [name, port] of Object.entries(ports)) if (filled[name] === undefined) filled[name] = port;
  if (options.log === true && writeLine) filled.log = writeLine;
  const listeners = options.onEvent ? [...sinks, options.onEvent] : sinks;
  if (listeners.length > 0) {
    filled.onEvent = (event: ResilienceEvent) => {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // One listener's failure is its own.
        }
      }
    };
  }
  return filled as T;
}
