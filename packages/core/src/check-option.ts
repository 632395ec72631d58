import { defined } from './defined.ts';
import { ResilienceError } from './errors.ts';
import { isCount } from './values.ts';

/**
 * What an option's value must be: a test (which may look at the other options) and the words
 * that state it in the error. Internal.
 */
export type Rule<T> = readonly [test: (value: any, options: T) => boolean, words: string];

export const atLeast = (min: number): Rule<unknown> => [(n) => Number.isFinite(n) && n >= min, `a finite number >= ${min}`];

export const COUNT: Rule<unknown> = [isCount, 'an integer >= 0'];

/**
 * The `INVALID_OPTION` error for an option that breaks its rule: `option must be rule`.
 *
 * @example
 * throw invalidOption('lineages.max', 'an integer >= 1'); // "lineages.max must be an integer >= 1"
 */
export function invalidOption(option: string, rule: string): ResilienceError {
  return new ResilienceError({ code: 'INVALID_OPTION', message: `${option} must be ${rule}`, details: { option } });
}

/**
 * The defaults with the overrides that are not `undefined` (those keep their defaults), each
 * option checked against its rule in order, frozen. Throws `INVALID_OPTION` naming the first
 * option that breaks its rule (`prefix` + its key).
 */
export function checkedOptions<T extends object>(
  prefix: string,
  defaults: T,
  overrides: Partial<T>,
  rules: { readonly [K in keyof T]?: Rule<T> },
): T {
  const options = { ...defaults, ...defined(overrides) } as T;
  for (const [key, [test, words]] of Object.entries(rules) as [keyof T & string, Rule<T>][]) {
    if (!test(options[key], options)) throw invalidOption(prefix + key, words);
  }
  return Object.freeze(options);
}
