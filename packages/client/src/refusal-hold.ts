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
  #open: (() => void) | undefined;
  /** What a request waits for before it goes; undefined while no refusal is being read. */
  until: Promise<void> | undefined;

  readonly #sleep: Sleep;

  constructor(sleep: Sleep) {
    this.#sleep = sleep;
  }

  /** Closes the gate for one refusal; the function returned opens it (once every refusal is released). */
  hold(): () => void {
    if (this.#holds++ === 0) this.until = new Promise<void>((resolve) => (this.#open = resolve));
    const capped = new AbortController();
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      capped.abort();
      if (--this.#holds === 0) {
        this.#open!();
        this.until = undefined;
      }
    };
    this.#sleep(HOLD_CAP_MS, capped.signal).then(release, () => {});
    return release;
  }
}
