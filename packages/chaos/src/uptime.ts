import type { ChaosClock } from './chaos-clock.ts';

/**
 * How long the server has been up, on its clock: since it started, or since its last restart
 * (what `server_uptime_seconds` says, and what the wire log times requests from).
 *
 * @example
 * const uptime = new Uptime(manualClock());
 * uptime.restart(); // a restart fault: up from now
 * uptime.seconds() // 0
 */
export class Uptime {
  readonly #clock: ChaosClock;
  #startedAtMs: number;

  constructor(clock: ChaosClock) {
    this.#clock = clock;
    this.#startedAtMs = clock.now();
  }

  /** Up from now: the server started, or came back from a restart. */
  restart(): void {
    this.#startedAtMs = this.#clock.now();
  }

  ms(): number {
    return this.#clock.now() - this.#startedAtMs;
  }

  seconds(): number {
    return Math.floor(this.ms() / 1000);
  }
}
