import { DIALECT_NAMES, type DialectName, type Fault } from '@mcp-resilience/chaos';
import { createRng, deriveSeed, type Rng } from './soak-random.ts';

/**
 * The kinds of fault a soak schedules; each round of the schedule has every one once, in a
 * seeded order. (Dialects are not a step of their own: each step that ends sessions says so
 * in the next dialect.)
 *
 * @example
 * for (const kind of FAULT_KINDS) console.log(kind); // 'evict-all', 'evict-one', …
 */
export const FAULT_KINDS = [
  'evict-all', 'evict-one', 'restart', 'restart-down', 'refuse', 'idle-budget', 'capacity',
  'status-429', 'status-500', 'status-502', 'status-503', 'status-504', 'drop-stream-ids', 'drop-stream-no-ids',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * Kinds that end sessions (at once, or for a while: an idle budget, a capacity).
 *
 * @example
 * SESSION_KILLERS.has('restart') // true
 */
export const SESSION_KILLERS: ReadonlySet<FaultKind> = new Set(['evict-all', 'evict-one', 'restart', 'restart-down', 'idle-budget', 'capacity']);

/** One step of a schedule: faults applied `atMs` after the calls started. */
export interface ScheduleStep {
  readonly index: number;
  readonly kind: FaultKind;
  readonly atMs: number;
  readonly faults: readonly Fault[];
  /** How long it acts: an episode until `undo`, a restart's down time, a refusal; 0 for a blow. */
  readonly lastsMs: number;
  /** Ends an episode (idle budget, capacity) `lastsMs` after it started. */
  readonly undo?: readonly Fault[];
}

export interface ScheduleOptions {
  readonly seed: number;
  /** The calls of the soak: one round per 2,500 of them (at least one), unless `rounds` says. */
  readonly calls: number;
  /** Clients of the soak, each with a session: the capacity fault keeps one session fewer. */
  readonly clients: number;
  readonly rounds?: number;
  /**
   * The least time between the end of a step that ends sessions and the next such step
   * (default 3 s): longer than a call lives, and than a quiet client sleeps, so that no call
   * meets two unrelated losses (the engine replays a call once; a second loss fails it, by design).
   */
  readonly killSpacingMs?: number;
}

/** Calls per round of the schedule, by default. */
const CALLS_PER_ROUND = 2_500;
/**
 * The least time between two steps that end sessions, by default.
 *
 * @example
 * buildSchedule({ seed, calls, clients, killSpacingMs: DEFAULT_KILL_SPACING_MS });
 */
export const DEFAULT_KILL_SPACING_MS = 3_000;
/** The first step comes once the calls are under way. */
const FIRST_STEP_MS = 500;
/**
 * The idle budget an episode sets is longer than any one wait of a call (a `Retry-After: 1`
 * is at most 1.1 s): a session waiting on its own backoff is not idle to death, only a quiet one.
 */
const IDLE_BUDGET_MS = { min: 1_200, max: 1_400 } as const;

function faultsOf(kind: FaultKind, rng: Rng, clients: number): Pick<ScheduleStep, 'faults' | 'lastsMs' | 'undo'> {
  const blow = (fault: Fault) => ({ faults: [fault], lastsMs: 0 });
  const status = (code: number, count: number, retryAfter?: string) =>
    blow({ kind: 'status', status: code, count, ...(retryAfter === undefined ? {} : { retryAfter }) });
  switch (kind) {
    case 'evict-all': return blow({ kind: 'evict', session: 'all' });
    case 'evict-one': return blow({ kind: 'evict', session: rng.pick(['oldest', 'newest'] as const) });
    case 'restart': return blow({ kind: 'restart' });
    case 'restart-down': {
      const downMs = rng.int(80, 300);
      return { faults: [{ kind: 'restart', downMs }], lastsMs: downMs };
    }
    case 'refuse': {
      const ms = rng.int(80, 300);
      return { faults: [{ kind: 'refuse', ms }], lastsMs: ms };
    }
    case 'idle-budget':
      return {
        faults: [{ kind: 'idle-budget', ms: rng.int(IDLE_BUDGET_MS.min, IDLE_BUDGET_MS.max) }], lastsMs: rng.int(2_000, 3_000),
        undo: [{ kind: 'idle-budget', ms: null }],
      };
    // One session too many: the least recently used idle one goes (a quiet client's), and the next as it comes back.
    case 'capacity':
      return { faults: [{ kind: 'capacity', max: Math.max(1, clients - 1) }], lastsMs: rng.int(500, 1_000), undo: [{ kind: 'capacity', max: null }] };
    case 'status-429': {
      // A burst that asks for 1 s hits one or two requests; one that asks for 0 s, up to four.
      const retryAfter = rng.pick(['0', '1']);
      return status(429, retryAfter === '1' ? rng.int(1, 2) : rng.int(2, 4), retryAfter);
    }
    case 'status-503': return status(503, rng.int(1, 3), rng.pick(['0', undefined]));
    case 'status-500': return status(500, rng.int(1, 2));
    case 'status-502': return status(502, rng.int(1, 2));
    case 'status-504': return status(504, rng.int(1, 2));
    case 'drop-stream-ids': {
      const retryMs = rng.pick([undefined, 0, 20]);
      return blow({ kind: 'drop-stream', eventIds: true, afterEvents: rng.int(0, 1), count: rng.int(1, 2), ...(retryMs === undefined ? {} : { retryMs }) });
    }
    case 'drop-stream-no-ids': return blow({ kind: 'drop-stream', eventIds: false, afterEvents: rng.int(0, 1), count: rng.int(1, 2) });
  }
}

/**
 * The fault schedule of a soak, drawn from its seed: rounds in which every {@link FAULT_KINDS}
 * kind appears in a shuffled order (those that end sessions once, the others twice), one
 * step every 200–600 ms, except that a step ending sessions waits `killSpacingMs` after the
 * end of the previous one. Parameters are seeded too (counts, `Retry-After`, down times,
 * episode lengths). A step that ends sessions first switches the server to the next "session
 * gone" dialect in turn, so that a round speaks them all.
 *
 * @example
 * const steps = buildSchedule({ seed: 1, calls: 1_500, clients: 6 });
 * steps.length; // 22: one round
 * scheduleEndMs(steps); // when the last one is over: the soak's calls are spread over about that long
 */
export function buildSchedule(options: ScheduleOptions): ScheduleStep[] {
  const rng = createRng(deriveSeed(options.seed, 'schedule'));
  const rounds = options.rounds ?? Math.max(1, Math.round(options.calls / CALLS_PER_ROUND));
  const spacing = options.killSpacingMs ?? DEFAULT_KILL_SPACING_MS;
  const others = DIALECT_NAMES.filter((name) => name !== 'typescript-sdk');
  // Every dialect in turn from a seeded one, the server's default (typescript-sdk) last.
  const dialects = [...others, 'typescript-sdk' as const];
  let nextDialect = rng.int(0, others.length - 1);
  const dialect = (): DialectName => dialects[nextDialect++ % dialects.length]!;
  // A round: each kind that ends sessions once, each of the others twice (they need no spacing).
  const round = FAULT_KINDS.flatMap((kind) => (SESSION_KILLERS.has(kind) ? [kind] : [kind, kind]));
  const kinds = Array.from({ length: rounds }, () => rng.shuffle(round)).flat();
  let cursor = FIRST_STEP_MS;
  let killsOverAtMs = Number.NEGATIVE_INFINITY;
  return kinds.map((kind, index) => {
    const step = faultsOf(kind, rng, options.clients);
    const kills = SESSION_KILLERS.has(kind);
    const atMs = kills ? Math.max(cursor, killsOverAtMs + spacing) : cursor;
    if (kills) killsOverAtMs = atMs + step.lastsMs;
    cursor = atMs + rng.int(200, 600);
    const faults = kills ? [{ kind: 'dialect', name: dialect() } as const, ...step.faults] : step.faults;
    return { index, kind, atMs, ...step, faults };
  });
}

/**
 * When the last step of a schedule is over (its episode ended, its down time passed).
 *
 * @example
 * scheduleEndMs([{ index: 0, kind: 'refuse', atMs: 400, lastsMs: 120, faults: [] }]) // 520
 */
export function scheduleEndMs(steps: readonly ScheduleStep[]): number {
  return Math.max(0, ...steps.map((s) => s.atMs + s.lastsMs));
}

/**
 * A short name for a fault as it is applied, for reports: `status 429 ×2 (Retry-After 1)`, …
 *
 * @example
 * describeFault({ kind: 'drop-stream', eventIds: false }) // 'drop-stream (no event ids) ×1'
 */
export function describeFault(fault: Fault): string {
  switch (fault.kind) {
    case 'evict': return `evict ${String(fault.session)}`;
    case 'restart': return fault.downMs ? `restart (down ${fault.downMs} ms)` : 'restart';
    case 'refuse': return `refuse ${fault.ms} ms`;
    case 'idle-budget': return fault.ms === null ? 'idle-budget off' : `idle-budget ${fault.ms} ms`;
    case 'capacity': return fault.max === null ? 'capacity off' : `capacity ${fault.max}`;
    case 'status': return `status ${fault.status} ×${fault.count ?? 1}${fault.retryAfter === undefined ? '' : ` (Retry-After ${fault.retryAfter})`}`;
    case 'drop-stream': return `drop-stream (${fault.eventIds === false ? 'no event ids' : 'event ids'}) ×${fault.count ?? 1}`;
    case 'dialect': return `dialect ${fault.name}`;
    case 'change-resource': return 'change-resource';
    case 'forget-tasks': return 'forget-tasks';
  }
}
