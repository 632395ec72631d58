/**
 * Counts executions of the non-idempotent `record` tool by the key the caller passes, so a
 * duplicate execution (a call replayed after it had already run) is visible from outside.
 *
 * @example
 * const ledger = new ExecutionLedger();
 * ledger.record('order-1'); // 1
 * ledger.snapshot();        // { 'order-1': 1 }
 */
export class ExecutionLedger {
  readonly #counts = new Map<string, number>();

  /** Counts one execution under `key` and returns how many there have been. */
  record(key: string): number {
    const count = (this.#counts.get(key) ?? 0) + 1;
    this.#counts.set(key, count);
    return count;
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries(this.#counts);
  }

  clear(): void {
    this.#counts.clear();
  }
}
