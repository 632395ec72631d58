import type { Backend } from './backend.ts';
import type { ChaosClock } from './chaos-clock.ts';
import type { AppliedFault } from './chaos-contract.ts';
import type { FaultPlan } from './fault-plan.ts';
import type { Fault } from './faults.ts';
import type { LiveFeed } from './live-feed.ts';
import type { ChangeableResource } from './resource.ts';
import type { SessionReaper } from './session-reaper.ts';
import type { SessionRegistry } from './session-registry.ts';
import type { TaskJobs } from './task-jobs.ts';
import type { Uptime } from './uptime.ts';

const MAX_HISTORY = 1_000;

/** What a fault acts on; `refuse` is the server's own (it closes its listener and reopens it later). */
export interface EffectParts {
  readonly clock: ChaosClock;
  /** When the server was created, on its clock: the history's and the live view's zero. */
  readonly createdAtMs: number;
  readonly registry: SessionRegistry;
  readonly reaper: SessionReaper;
  readonly backend: Backend;
  readonly tasks: TaskJobs;
  readonly resource: ChangeableResource;
  readonly plan: FaultPlan;
  readonly live: LiveFeed;
  readonly uptime: Uptime;
  readonly refuse: (ms: number) => void;
}

/**
 * What a fault does when it is applied: an eviction ends sessions, a restart ends them all with
 * the tasks and the uptime, a refusal closes the door for a while, a resource changes, and the
 * faults that persist (statuses, drops, budgets, dialect) join the plan the fault layer reads.
 * Every fault applied is kept in a history (the last 1,000) and told to the live view.
 *
 * @example
 * const effects = new FaultEffects({ clock, createdAtMs, registry, reaper, backend, tasks, resource, plan, live, uptime, refuse });
 * await effects.apply({ kind: 'restart', downMs: 2000 });
 * effects.history() // [{ kind: 'restart', atMs: 0, untilMs: 2000 }]
 */
export class FaultEffects {
  readonly #parts: EffectParts;
  readonly #history: AppliedFault[] = [];

  constructor(parts: EffectParts) {
    this.#parts = parts;
  }

  /** Every fault applied, oldest first, on the server's clock since it was created. */
  history(): AppliedFault[] {
    return [...this.#history];
  }

  async apply(fault: Fault): Promise<void> {
    const { clock, createdAtMs, registry, reaper, backend, tasks, resource, plan, live, uptime } = this.#parts;
    const atMs = clock.now() - createdAtMs;
    const downMs = fault.kind === 'refuse' ? fault.ms : fault.kind === 'restart' ? fault.downMs : undefined;
    this.#history.push({ kind: fault.kind, atMs, ...(downMs ? { untilMs: atMs + downMs } : {}) });
    if (this.#history.length > MAX_HISTORY) this.#history.shift();
    live.faultApplied(fault, atMs, downMs ? atMs + downMs : undefined);
    switch (fault.kind) {
      case 'evict':
        return reaper.evict(reaper.targets(fault.session), 'evicted');
      case 'restart':
        for (const session of registry.all()) live.sessionEnded(session.ordinal, 'restart');
        registry.clear();
        tasks.clear(); // a process that died took its tasks with it
        await backend.dropAll();
        uptime.restart();
        if (fault.downMs) this.#parts.refuse(fault.downMs);
        return;
      case 'refuse':
        return this.#parts.refuse(fault.ms);
      case 'change-resource':
        return resource.set(fault.text);
      case 'forget-tasks':
        return tasks.clear();
      default:
        plan.add(fault);
        if (fault.kind === 'capacity') reaper.enforceCapacity();
    }
  }
}
