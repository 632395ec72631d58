/** The URI of the one resource the chaos server offers; it can be subscribed and changed. */
export const RESOURCE_URI = 'chaos://counter';

/**
 * A text resource changed on demand (control API), telling its listeners when it does.
 *
 * @example
 * const resource = new ChangeableResource();
 * resource.onChange(() => notifySubscribers());
 * resource.set('42');
 */
export class ChangeableResource {
  #text = '0';
  readonly #listeners = new Set<() => void>();

  get text(): string {
    return this.#text;
  }

  set(text: string): void {
    this.#text = text;
    for (const listener of this.#listeners) listener();
  }

  /** Adds a listener; returns the function that removes it. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
