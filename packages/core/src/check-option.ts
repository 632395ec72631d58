import { ResilienceError } from './errors.ts';

/** Throws `INVALID_OPTION` naming the option and its rule, unless `ok`. Internal. */
export function checkOption(ok: boolean, option: string, rule: string): void {
  if (!ok) throw new ResilienceError({ code: 'INVALID_OPTION', message: `${option} must be ${rule}`, details: { option } });
}
