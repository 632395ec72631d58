import type { LossCause, ResilienceEvent } from '@mcp-resilience/core';

/** How many sessions' losses are remembered at once: enough for every endpoint of an agent. */
const REMEMBERED = 64;

/** A loss being recovered from: when the session was found gone, and why. */
interface Loss {
  readonly atMs: number;
  readonly cause: LossCause;
}

/** One recovery: how long from the loss to the call sent again, and the loss's cause. */
export interface Recovery {
  readonly seconds: number;
  readonly cause: LossCause;
}

/**
 * Follows the engine's events from a session loss to each call sent again on its replacement:
 * `session-lost` (session n, at t₀) → `session-reinitialized` (n → m, `lost`) → `replayed` on m
 * (at t₁) is one recovery of t₁ − t₀, on the engine's own clock. Every call replayed after the
 * same loss is one recovery (eight concurrent calls: eight). Sessions are known by ordinal only,
 * within their client (the events' `client`: clients of one fetch number their sessions from 1
 * each); the last {@link REMEMBERED} losses are kept, so memory stays bounded on a long-running agent.
 *
 * @example
 * const clock = new RecoveryClock();
 * clock.observe({ type: 'session-lost', session: 1, dialect: 'amdahl', cause: 'unknown', suspectedServerBug: false, sessionAgeMs: 0, idleMs: 0, atMs: 100 });
 * clock.observe({ type: 'session-reinitialized', from: 1, to: 2, reason: 'lost', atMs: 130 });
 * clock.observe({ type: 'replayed', session: 2, method: 'tools/call', atMs: 160 }) // { seconds: 0.06, cause: 'unknown' }
 */
export class RecoveryClock {
  /** By client and the ordinal of the session lost, then of the session that replaced it. */
  readonly #lost = new Map<string, Loss>();
  readonly #replacing = new Map<string, Loss>();

  /** Takes in one event; returns the recovery it completes, if it completes one. */
  observe(event: ResilienceEvent): Recovery | undefined {
    const atMs = event.atMs;
    if (atMs === undefined) return undefined;
    const key = (ordinal: number) => `${event.client ?? 1}/${ordinal}`;
    switch (event.type) {
      case 'session-lost':
        remember(this.#lost, key(event.session), { atMs, cause: event.cause });
        return undefined;
      case 'session-reinitialized': {
        const loss = event.reason === 'lost' ? this.#lost.get(key(event.from)) : undefined;
        if (loss) remember(this.#replacing, key(event.to), loss);
        return undefined;
      }
      case 'replayed': {
        const loss = this.#replacing.get(key(event.session));
        return loss ? { seconds: Math.max(0, atMs - loss.atMs) / 1_000, cause: loss.cause } : undefined;
      }
      default:
        return undefined;
    }
  }
}

function remember(map: Map<string, Loss>, key: string, loss: Loss): void {
  map.delete(key);
  map.set(key, loss);
  if (map.size > REMEMBERED) map.delete(map.keys().next().value!);
}
