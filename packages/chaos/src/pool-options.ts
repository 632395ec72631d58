import { DIALECT_NAMES, type DialectName } from './dialect-responses.ts';
import { ChaosInputError, parseFaults, parseSchedule, type Fault, type ScheduledFault } from './faults.ts';
import { TASK_BINDINGS, type TaskBinding } from './task-binding.ts';

/**
 * What a server of the pool can be started with over HTTP: the options that shape its
 * behaviour. Where it binds, who may drive it and what it proxies are the pool's own
 * command line, never a request's.
 */
export interface PoolServerOptions {
  /** `legacy` (default): sessionful, 2025-03-26 … 2025-11-25. `modern`: 2026-07-28, stateless. */
  readonly mode?: 'legacy' | 'modern';
  /** How "session gone" is said (default `typescript-sdk`). */
  readonly dialect?: DialectName;
  /** Faults in force from the start. */
  readonly faults?: readonly Fault[];
  /** Faults applied at given times after the start. */
  readonly schedule?: readonly ScheduledFault[];
  /** Answer requests with JSON bodies instead of event streams (legacy mode). */
  readonly jsonResponses?: boolean;
  /** Expose `Mcp-Session-Id` to browsers through CORS (default true). */
  readonly exposeSessionId?: boolean;
  /** Tasks belong to their `session` (default) or to the `server`. */
  readonly taskBinding?: TaskBinding;
}

const KNOWN = ['mode', 'dialect', 'faults', 'schedule', 'jsonResponses', 'exposeSessionId', 'taskBinding'] as const;
const FIXED_BY_THE_POOL = ['host', 'port', 'upstream', 'controlOrigins'];

function bad(what: string): never {
  throw new ChaosInputError(what);
}

function flag(raw: Record<string, unknown>, key: string): boolean | undefined {
  const value = raw[key];
  if (value !== undefined && typeof value !== 'boolean') bad(`${key} must be true or false`);
  return value as boolean | undefined;
}

/**
 * Reads the body of `POST {control}/servers`: an object of {@link PoolServerOptions}; an
 * unknown field, or one the pool fixes itself (`host`, `port`, `upstream`, `controlOrigins`),
 * is a {@link ChaosInputError}.
 *
 * @example
 * parsePoolServerOptions({ dialect: 'amdahl', faults: [{ kind: 'capacity', max: 1 }] });
 */
export function parsePoolServerOptions(value: unknown): PoolServerOptions {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) bad('server options must be an object');
  const raw = value as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (FIXED_BY_THE_POOL.includes(key)) bad(`${key} is set by the pool's command line, not per server`);
    if (!(KNOWN as readonly string[]).includes(key)) bad(`unknown server option "${key}" (known: ${KNOWN.join(', ')})`);
  }
  if (raw.mode !== undefined && raw.mode !== 'legacy' && raw.mode !== 'modern') bad('mode must be legacy or modern');
  if (raw.dialect !== undefined && !DIALECT_NAMES.includes(raw.dialect as DialectName)) bad(`dialect must be one of ${DIALECT_NAMES.join(', ')}`);
  if (raw.taskBinding !== undefined && !TASK_BINDINGS.includes(raw.taskBinding as TaskBinding)) bad('taskBinding must be session or server');
  const jsonResponses = flag(raw, 'jsonResponses');
  const exposeSessionId = flag(raw, 'exposeSessionId');
  return {
    ...(raw.mode === undefined ? {} : { mode: raw.mode as 'legacy' | 'modern' }),
    ...(raw.dialect === undefined ? {} : { dialect: raw.dialect as DialectName }),
    ...(raw.faults === undefined ? {} : { faults: parseFaults(raw.faults) }),
    ...(raw.schedule === undefined ? {} : { schedule: parseSchedule(raw.schedule) }),
    ...(jsonResponses === undefined ? {} : { jsonResponses }),
    ...(exposeSessionId === undefined ? {} : { exposeSessionId }),
    ...(raw.taskBinding === undefined ? {} : { taskBinding: raw.taskBinding as TaskBinding }),
  };
}
