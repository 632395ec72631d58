import { ResilienceError } from './errors.ts';

/** The overrides without the keys set to `undefined`, so that those keep their defaults. Internal. */
export function definedOnly<T extends object>(overrides: T): Partial<T> {
  return Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Throws `INVALID_OPTION` naming the option and its rule, unless `ok`. Internal. */
export function checkOption(ok: boolean, option: string, rule: string): void {
  if (!ok) throw new ResilienceError({ code: 'INVALID_OPTION', message: `${option} must be ${rule}`, details: { option } });
}
