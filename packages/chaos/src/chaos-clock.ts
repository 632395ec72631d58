/**
 * The chaos server's clock: everything it times (its uptime, idle budgets, the age of sessions,
 * scheduled faults, a refusal's or a restart's downtime, the `slow` and `job` tools' work, the
 * wire log's and the live view's times) reads `now` and waits with `after`. The CLI and
 * {@link startChaosServer} by default run on {@link REAL_CLOCK}; a test passes a
 * {@link manualClock} and moves time itself.
 */
export interface ChaosClock {
  /** The time, in ms (only differences are read). */
  now(): number;
  /** Runs `run` once `ms` have passed; returns what cancels it. */
  after(ms: number, run: () => unknown): () => void;
}

/**
 * The wall clock and the platform's timers.
 *
 * @example
 * const cancel = REAL_CLOCK.after(1_000, () => console.log(REAL_CLOCK.now()));
 * cancel();
 */
export const REAL_CLOCK: ChaosClock = Object.freeze({
  now: () => Date.now(),
  after: (ms: number, run: () => unknown) => {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
});

/** A {@link ChaosClock} whose time moves only when told to. */
export interface ManualClock extends ChaosClock {
  /**
   * Moves time on by `ms`, running each timer that falls due in the order of its time (timers
   * set by those run too, when they fall due within `ms`), and resolves once every one of them
   * has run and what it returned has settled (a restart's downtime ends when the server listens
   * again, not only when the timer fired).
   */
  advance(ms: number): Promise<void>;
  /** How many timers are waiting. */
  readonly pending: number;
}

interface Timer {
  readonly atMs: number;
  readonly order: number;
  readonly run: () => unknown;
}

/**
 * A clock for tests: time stands still until {@link ManualClock.advance} moves it, so a test
 * sees an uptime, an idle budget or a schedule pass at once and "nothing happened yet" holds
 * exactly until it says otherwise.
 *
 * @example
 * const clock = manualClock();
 * const chaos = await startChaosServer({ clock, schedule: [{ atMs: 1_000, fault: { kind: 'evict', session: 'all' } }] });
 * await clock.advance(1_000); // the eviction has been applied
 * await chaos.stop();
 */
export function manualClock(startMs = 0): ManualClock {
  let nowMs = startMs;
  let order = 0;
  const timers = new Set<Timer>();
  const nextDue = (untilMs: number): Timer | undefined => {
    let next: Timer | undefined;
    for (const timer of timers) {
      if (timer.atMs > untilMs) continue;
      if (!next || timer.atMs < next.atMs || (timer.atMs === next.atMs && timer.order < next.order)) next = timer;
    }
    return next;
  };
  return {
    now: () => nowMs,
    after(ms, run) {
      const timer: Timer = { atMs: nowMs + Math.max(0, ms), order: order++, run };
      timers.add(timer);
      return () => void timers.delete(timer);
    },
    async advance(ms) {
      const untilMs = nowMs + Math.max(0, ms);
      for (let timer = nextDue(untilMs); timer; timer = nextDue(untilMs)) {
        timers.delete(timer);
        nowMs = Math.max(nowMs, timer.atMs);
        await timer.run();
      }
      nowMs = untilMs;
    },
    get pending() {
      return timers.size;
    },
  };
}
