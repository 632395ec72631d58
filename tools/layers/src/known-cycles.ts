import type { ImportCycle } from './import-cycles.ts';

/**
 * The cycles the repository still has, by file: the ONE place an exception is written. A cycle
 * passes only if every file of it is listed here, so a new cycle anywhere, or a file that joins
 * a listed one, fails; a listed file that is in no cycle any more fails too, so the list only
 * shrinks as the work is done.
 *
 * @example
 * KNOWN_CYCLES.length // 0: the repository has no import cycle; an entry here would excuse one, with why
 */
export const KNOWN_CYCLES: readonly { readonly why: string; readonly files: readonly string[] }[] = [];

/**
 * The cycles that `known` does not excuse: those with a file it does not list.
 *
 * @example
 * unexplainedCycles([{ files: ['a.ts', 'b.ts'], loop: ['a.ts', 'b.ts'] }], [{ why: '', files: ['a.ts'] }]) // the cycle: b.ts is not listed
 */
export function unexplainedCycles(cycles: readonly ImportCycle[], known: typeof KNOWN_CYCLES): ImportCycle[] {
  return cycles.filter((cycle) => !known.some((entry) => cycle.files.every((file) => entry.files.includes(file))));
}

/**
 * The files `known` lists that are in no cycle now: the exception outlived its cause, delete them.
 *
 * @example
 * staleExceptions([], [{ why: '', files: ['a.ts'] }]) // ['a.ts']
 */
export function staleExceptions(cycles: readonly ImportCycle[], known: typeof KNOWN_CYCLES): string[] {
  const inCycles = new Set(cycles.flatMap((cycle) => cycle.files));
  return known.flatMap((entry) => entry.files).filter((file) => !inCycles.has(file));
}
