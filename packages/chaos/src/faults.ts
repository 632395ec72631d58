import { DIALECT_NAMES, type DialectName } from './dialect-responses.ts';

/**
 * A fault to inject. Faults that persist (`idle-budget`, `capacity`, `dialect`) stay until
 * changed or reset; `status` and `drop-stream` hit the next `count` matching requests.
 */
export type Fault =
  /** End sessions now: all, the oldest, the newest, or the one with this ordinal. */
  | { readonly kind: 'evict'; readonly session: 'all' | 'oldest' | 'newest' | number }
  /** All sessions gone and uptime back to 0, on the same port; refusing connections for `downMs` first. */
  | { readonly kind: 'restart'; readonly downMs?: number }
  /** A session idle this long expires (an open stream counts as use); `null` turns it off. */
  | { readonly kind: 'idle-budget'; readonly ms: number | null }
  /** At most `max` sessions: a new one evicts the least recently used idle one; `null` turns it off. */
  | { readonly kind: 'capacity'; readonly max: number | null }
  /**
   * The next `count` matching requests get this status (and `Retry-After`, `body` and its
   * `contentType`, text/plain by default). With `afterRun`, the request reaches the server and
   * runs first, and its complete answer is replaced: a gateway's error after it forwarded the
   * request (a router timeout, an upstream reset), whose outcome the client cannot know.
   */
  | {
      readonly kind: 'status'; readonly status: number; readonly count?: number; readonly retryAfter?: string;
      readonly body?: string; readonly contentType?: string; readonly afterRun?: boolean; readonly rpcMethod?: string; readonly httpMethod?: string;
    }
  /** The next `count` matching SSE responses break after `afterEvents` events, before the response. */
  | {
      readonly kind: 'drop-stream'; readonly afterEvents?: number; readonly eventIds?: boolean; readonly retryMs?: number;
      readonly count?: number; readonly rpcMethod?: string;
    }
  /** Connections refused for `ms`. */
  | { readonly kind: 'refuse'; readonly ms: number }
  /** How "session gone" is said from now on. */
  | { readonly kind: 'dialect'; readonly name: DialectName }
  /** Changes the `chaos://counter` resource, notifying its subscribers. */
  | { readonly kind: 'change-resource'; readonly text: string }
  /** The server discards every task (a TTL sweep, a task store flushed) and stops their work; sessions stay. */
  | { readonly kind: 'forget-tasks' };

/** A fault applied at `atMs` after the server started (a schedule file holds a list of these). */
export interface ScheduledFault {
  readonly atMs: number;
  readonly fault: Fault;
}

/**
 * A fault, a fault list or a schedule that is not well formed: what it names is in the message,
 * and the control API answers it with 400.
 *
 * @example
 * try { parseFaults([{ kind: 'no-such-fault' }]); } catch (error) { if (error instanceof ChaosInputError) console.error(error.code, error.message); }
 */
export class ChaosInputError extends Error {
  readonly code = 'CHAOS_BAD_INPUT';
  override name = 'ChaosInputError';
}

const MAX_MS = 600_000;
const MAX_COUNT = 100_000;
// Header values travel as they are: anything printable, however hostile, but no line breaks.
const HEADER_SAFE = /^[\x20-\x7e]*$/;

type Raw = Record<string, unknown>;

function bad(what: string): never {
  throw new ChaosInputError(what);
}

function int(raw: Raw, key: string, min: number, max: number, fallback?: number): number {
  const value = raw[key] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    bad(`${String(raw.kind)}.${key} must be an integer from ${min} to ${max}`);
  }
  return value;
}

function text(raw: Raw, key: string, optional = false): string | undefined {
  const value = raw[key];
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'string' || !HEADER_SAFE.test(value) || value.length > 4096) {
    bad(`${String(raw.kind)}.${key} must be printable text of at most 4096 characters`);
  }
  return value;
}

/** An optional boolean: `true` kept, `false` or absent dropped (the default). */
function flag(raw: Raw, key: string): true | undefined {
  const value = raw[key];
  if (value !== undefined && typeof value !== 'boolean') bad(`${String(raw.kind)}.${key} must be true or false`);
  return value === true ? true : undefined;
}

// Drops the optional fields that were not given.
const pick = (o: Raw): Fault => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as unknown as Fault;

/**
 * Reads one fault from JSON, checking every field; throws {@link ChaosInputError} saying what
 * is wrong.
 *
 * @example
 * parseFault({ kind: 'status', status: 429, count: 2, retryAfter: '1' });
 */
export function parseFault(value: unknown): Fault {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) bad('a fault must be an object');
  const raw = value as Raw;
  switch (raw.kind) {
    case 'evict': {
      const s = raw.session ?? 'all';
      if (!(s === 'all' || s === 'oldest' || s === 'newest' || (typeof s === 'number' && Number.isInteger(s) && s > 0))) {
        bad('evict.session must be "all", "oldest", "newest" or a session ordinal');
      }
      return { kind: 'evict', session: s };
    }
    case 'restart':
      return pick({ kind: 'restart', downMs: raw.downMs === undefined ? undefined : int(raw, 'downMs', 0, MAX_MS) });
    case 'idle-budget':
      return { kind: 'idle-budget', ms: raw.ms === null ? null : int(raw, 'ms', 0, 86_400_000) };
    case 'capacity':
      return { kind: 'capacity', max: raw.max === null ? null : int(raw, 'max', 1, 10_000) };
    case 'status':
      return pick({
        kind: 'status', status: int(raw, 'status', 400, 599), count: int(raw, 'count', 1, MAX_COUNT, 1),
        retryAfter: text(raw, 'retryAfter', true), body: raw.body === undefined ? undefined : String(raw.body).slice(0, 1_000_000),
        contentType: text(raw, 'contentType', true), afterRun: flag(raw, 'afterRun'),
        rpcMethod: text(raw, 'rpcMethod', true), httpMethod: text(raw, 'httpMethod', true),
      });
    case 'drop-stream':
      return pick({
        kind: 'drop-stream', afterEvents: int(raw, 'afterEvents', 0, 10_000, 0), eventIds: raw.eventIds !== false,
        retryMs: raw.retryMs === undefined ? undefined : int(raw, 'retryMs', 0, MAX_MS),
        count: int(raw, 'count', 1, MAX_COUNT, 1), rpcMethod: text(raw, 'rpcMethod', true),
      });
    case 'refuse':
      return { kind: 'refuse', ms: int(raw, 'ms', 1, MAX_MS) };
    case 'dialect':
      if (!DIALECT_NAMES.includes(raw.name as DialectName)) bad(`dialect.name must be one of ${DIALECT_NAMES.join(', ')}`);
      return { kind: 'dialect', name: raw.name as DialectName };
    case 'change-resource':
      return { kind: 'change-resource', text: String(text(raw, 'text')) };
    case 'forget-tasks':
      return { kind: 'forget-tasks' };
    default:
      return bad(`unknown fault kind ${JSON.stringify(raw.kind)}`);
  }
}

/**
 * Reads one fault or a list of them.
 *
 * @example
 * parseFaults([{ kind: 'evict', session: 'all' }, { kind: 'dialect', name: 'amdahl' }]);
 */
export function parseFaults(value: unknown): Fault[] {
  return (Array.isArray(value) ? value : [value]).map(parseFault);
}

/**
 * Reads a schedule: a list of `{ "atMs": …, "fault": {…} }`, applied in time order.
 *
 * @example
 * parseSchedule([{ atMs: 1000, fault: { kind: 'restart' } }]);
 */
export function parseSchedule(value: unknown): ScheduledFault[] {
  if (!Array.isArray(value)) bad('a schedule must be a list of { atMs, fault }');
  return value
    .map((item: unknown) => {
      if (typeof item !== 'object' || item === null) bad('a schedule entry must be { atMs, fault }');
      const raw = item as Raw;
      return { atMs: int({ ...raw, kind: 'schedule' }, 'atMs', 0, 86_400_000), fault: parseFault(raw.fault) };
    })
    .sort((a, b) => a.atMs - b.atMs);
}
