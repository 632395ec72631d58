import type { ChaosServer, Fault } from '@mcp-resilience/chaos';
import { describeFault, SESSION_KILLERS, type FaultKind, type ScheduleStep } from './soak-schedule.ts';

/** A step as it was carried out: when (ms since the calls started) and what. */
export interface AppliedStep {
  readonly index: number;
  readonly kind: FaultKind;
  /** When it was due, and when it was applied. */
  readonly dueMs: number;
  readonly atMs: number;
  readonly faults: readonly string[];
  /** When an episode (idle budget, capacity) was ended, if it was before the soak ended. */
  endedAtMs?: number;
  /** Set if the chaos server refused the faults. */
  error?: string;
}

export interface ConductorOptions {
  /** The soak's clock: ms since the calls started. */
  readonly clock: () => number;
  /** The least time between the end of a step that ends sessions and the next such step. */
  readonly killSpacingMs: number;
  /** Whether every client has completed a call it started at or after `sinceMs` (it has met the loss, and got over it). */
  readonly recovered: (sinceMs: number) => boolean;
}

/** How often a step that ends sessions looks again whether it may go. */
const POLL_MS = 20;

/**
 * Plays a schedule against a chaos server on the soak's clock: each step at its time, each
 * episode ended after its length. A step that ends sessions also waits until the previous one
 * is `killSpacingMs` behind and every client has got over it (a quiet client finds its session
 * gone only at its next call): a call is replayed once, and must not meet two unrelated
 * losses. Time so lost shifts the rest of the schedule ({@link Conductor.lagMs}), and the
 * calls' pace with it. Stops at once when told.
 *
 * @example
 * const conductor = new Conductor(chaos, steps, { clock, killSpacingMs: 3_000, recovered: (ms) => true });
 * const playing = conductor.play();
 * // … the calls …
 * conductor.stop(); await playing;
 */
export class Conductor {
  readonly applied: AppliedStep[] = [];
  #stopped = false;
  #lag = 0;
  /** When the step being held back was due, while it is. */
  #heldSinceMs: number | undefined;
  #alarm: (() => void) | undefined;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();

  constructor(private readonly chaos: ChaosServer, private readonly steps: readonly ScheduleStep[], private readonly options: ConductorOptions) {}

  /** How late the schedule runs now. */
  lagMs(): number {
    const held = this.#heldSinceMs === undefined ? 0 : this.options.clock() - this.#heldSinceMs;
    return Math.max(this.#lag, held);
  }

  /** Applies the steps in order at their times; resolves when all are applied or it is stopped. */
  async play(): Promise<void> {
    const { clock } = this.options;
    let killsOverAtMs = Number.NEGATIVE_INFINITY;
    for (const step of this.steps) {
      await this.#sleep(step.atMs + this.#lag - clock());
      const kills = SESSION_KILLERS.has(step.kind);
      this.#heldSinceMs = step.atMs;
      while (kills && !this.#stopped && (clock() < killsOverAtMs + this.options.killSpacingMs || !this.options.recovered(killsOverAtMs))) {
        await this.#sleep(POLL_MS);
      }
      this.#heldSinceMs = undefined;
      if (this.#stopped) return;
      const applied: AppliedStep = { index: step.index, kind: step.kind, dueMs: step.atMs, atMs: clock(), faults: step.faults.map(describeFault) };
      this.#lag = Math.max(this.#lag, applied.atMs - step.atMs);
      this.applied.push(applied);
      await this.#apply(step.faults, applied);
      if (kills) killsOverAtMs = clock() + step.lastsMs;
      const { undo } = step;
      if (undo) this.#later(step.lastsMs, () => void this.#apply(undo, applied).then(() => (applied.endedAtMs = clock())));
    }
  }

  async #sleep(ms: number): Promise<void> {
    if (ms > 0 && !this.#stopped) await new Promise<void>((resolve) => ((this.#alarm = resolve), this.#later(ms, resolve)));
    this.#alarm = undefined;
  }

  #later(ms: number, run: () => void): void {
    const timer = setTimeout(() => (this.#timers.delete(timer), run()), ms);
    this.#timers.add(timer);
  }

  async #apply(faults: readonly Fault[], applied: AppliedStep): Promise<void> {
    try {
      await this.chaos.applyFaults(faults);
    } catch (error) {
      applied.error = String(error);
    }
  }

  /** Applies nothing more and ends no episode. */
  stop(): void {
    this.#stopped = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#alarm?.();
  }
}
