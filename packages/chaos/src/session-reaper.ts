import type { Backend } from './backend.ts';
import type { FaultPlan } from './fault-plan.ts';
import type { LiveFeed } from './live-feed.ts';
import type { SessionEndReason } from './live-view/live-schema.ts';
import type { SessionEntry, SessionRegistry } from './session-registry.ts';

/** What ending sessions touches: who holds them, who frees them, who is told, and the budgets in force. */
export interface ReaperParts {
  readonly registry: SessionRegistry;
  readonly backend: Backend;
  readonly live: LiveFeed;
  readonly plan: FaultPlan;
  /** When the server was created, on its clock: the live view's zero. */
  readonly createdAtMs: number;
}

/** Which sessions an `evict` fault names. */
export type EvictTarget = 'all' | 'oldest' | 'newest' | number;

/**
 * Ends sessions the fault layer decided are gone: evicted, idle beyond the budget, over
 * capacity, deleted by their client. Each leaves the registry, its resources are freed in the
 * backend, and the live view is told when it ended.
 *
 * @example
 * const reaper = new SessionReaper({ registry, backend, live, plan, createdAtMs: clock.now() });
 * await reaper.evict(reaper.targets('oldest'), 'evicted');
 */
export class SessionReaper {
  readonly #parts: ReaperParts;

  constructor(parts: ReaperParts) {
    this.#parts = parts;
  }

  /** The ids of the sessions `which` names, by ordinal. */
  targets(which: EvictTarget): string[] {
    const all = this.#parts.registry.all().sort((a, b) => a.ordinal - b.ordinal);
    if (which === 'all') return all.map((s) => s.id);
    const one = which === 'oldest' ? all[0] : which === 'newest' ? all.at(-1) : all.find((s) => s.ordinal === which);
    return one ? [one.id] : [];
  }

  async evict(ids: readonly string[], reason: SessionEndReason): Promise<void> {
    for (const id of ids) this.#ended(this.#parts.registry.get(id), reason);
    await Promise.all(ids.map((id) => this.#parts.backend.dropSession(id).catch(() => {})));
  }

  /** Over capacity, the least recently used idle sessions go; a session in use never does (nor `newest`). */
  enforceCapacity(newest?: string): void {
    const max = this.#parts.plan.capacity;
    if (max === null) return;
    while (this.#parts.registry.all().length > max) {
      const victim = this.#parts.registry.leastRecentlyUsedIdle(newest);
      if (!victim) return;
      void this.evict([victim.id], 'capacity');
    }
  }

  /** Sessions idle beyond the budget in force expire. */
  expireIdle(): void {
    const budget = this.#parts.plan.idleBudgetMs;
    if (budget !== null) void this.evict(this.#parts.registry.idleBeyond(budget), 'idle');
  }

  /** Takes a session out of the registry, and tells the live view when (an idle one: when it crossed the budget). */
  #ended(session: SessionEntry | undefined, reason: SessionEndReason): void {
    const { registry, plan, live, createdAtMs } = this.#parts;
    if (!session || !registry.remove(session.id)) return;
    const idleUntil = reason === 'idle' ? session.lastActivityAtMs + (plan.idleBudgetMs ?? 0) - createdAtMs : undefined;
    live.sessionEnded(session.ordinal, reason, idleUntil);
  }
}
