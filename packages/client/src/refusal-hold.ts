import type { Sleep } from './ports.ts';
import { HOLD_CAP_MS } from './limits.ts';

/**
 * The gate a session closes while refusals of requests that carried its id are being read:
 * until each is classified (its release says so, and at the latest after {@link HOLD_CAP_MS} on
 * the sleep port), requests wait before they go, so that none carries an id about to be declared dead.
 *
 * @example
 * const release = gate.hold();      // a 4xx to a request that carried the session id arrived
 * await gate.until;                 // another request, before it goes (undefined: the gate is open)
 * release();                        // classified: the requests waiting go on
 */
export class RefusalHold {
  #holds = 0;
  #held: { readonly until: Promise<void>; readonly open: () => void } | undefined;

  readonly #sleep: Sleep;

  constructor(sleep: Sleep) {
    this.#sleep = sleep;
  }

  /** Whether a refusal is being read. */
  get holding(): boolean {
    return this.#holds > 0;
  }

  /** What a request waits for before it goes; undefined while no refusal is being read. */
  get until(): Promise<void> | undefined {
    return this.#held?.until;
  }

  /** Closes the gate for one refusal; the function returned opens it (once every refusal is released). */
  hold(): () => void {
    this.#holds += 1;
    if (!this.#held) {
      let open!: () => void;
      const until = new Promise<void>((resolve) => (open = resolve));
      this.#held = { until, open };
    }
    const capped = new AbortController();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      capped.abort();
      if (--this.#holds === 0 && this.#held) {
        this.#held.open();
        this.#held = undefined;
      }
    };
    this.#sleep(HOLD_CAP_MS, capped.signal).then(release, () => {});
    return release;
  }
}
