/**
 * `T`, each of whose optional properties may also be given as `undefined` (which {@link defined} leaves out).
 *
 * @example
 * const overrides: Loose<Partial<Backoff>> = { initialMs: flags.initialMs }; // may be undefined: the default stays
 */
export type Loose<T> = { [K in keyof T]: undefined extends T[K] ? T[K] | undefined : T[K] };

/**
 * `T` without its `undefined` values: a property that may be `undefined` is optional instead.
 *
 * @example
 * const session: Defined<{ id: string | undefined; ordinal: number }> = defined({ id: maybeId, ordinal: 1 }); // { ordinal: 1 } without an id
 */
export type Defined<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/**
 * An object without its `undefined` properties: an optional field is given as it is (absent
 * when `undefined`), instead of being spread in only when it is set. Options take their
 * defaults through it; the engine builds its events and core inputs with it.
 *
 * @example
 * defined({ type: 'gave-up', method: undefined, code: 'SESSION_LOST' }) // { type: 'gave-up', code: 'SESSION_LOST' }
 */
export function defined<T extends object>(value: T): Defined<T> {
  // A loop, not entries → filter → fromEntries: it runs on every call the engine carries.
  const kept: Record<string, unknown> = {};
  for (const key in value) value[key] === undefined || (kept[key] = value[key]);
  return kept as Defined<T>;
}
