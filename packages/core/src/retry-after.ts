import { clamp } from './values.ts';

/**
 * A parsed `Retry-After` header: a delay, an absolute time, or a value that is neither
 * (ignored by the decision, which then uses its own backoff).
 */
export type RetryAfter =
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'date'; readonly epochMs: number }
  | { readonly kind: 'invalid'; readonly raw: string };

const MONTHS = 'Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec'; // a month's index: its position / 4
// RFC 9110 §5.6.7: IMF-fixdate, and the two obsolete forms recipients must accept.
// Captured: day, month, year, time (IMF-fixdate and RFC 850); month, day, time, year (asctime).
const IMF_FIXDATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const RFC850 = /^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, (\d{2})-(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const ASCTIME = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ( \d|\d{2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;
const RAW_LIMIT = 64;

/** The date's time, or `undefined` for what Date.UTC would silently roll over: 31 Feb, 25:00, 61 seconds. */
function utc(year: number, month: string, day: string, time: string[]): number | undefined {
  const monthIndex = MONTHS.indexOf(month) / 4;
  // Number(' 6') is 6: asctime's space-padded day needs no trimming.
  const [d, hh, mm, ss] = [day, ...time].map(Number) as [number, number, number, number];
  const ms = Date.UTC(year, monthIndex, d, hh, mm, ss);
  const back = new Date(ms);
  return back.getUTCDate() === d && back.getUTCMonth() === monthIndex && hh < 24 && mm < 60 && ss < 61 ? ms : undefined;
}

function parseHttpDate(value: string): number | undefined {
  let m = IMF_FIXDATE.exec(value);
  if (m) return utc(Number(m[3]), m[2]!, m[1]!, m.slice(4));
  m = RFC850.exec(value);
  if (m) {
    // RFC 9110 reads a two-digit year against today's date; with no clock here, 00–69 are
    // 20xx and 70–99 are 19xx. Any reading of such a date is bounded by the cap anyway.
    const yy = Number(m[3]);
    return utc(yy < 70 ? 2000 + yy : 1900 + yy, m[2]!, m[1]!, m.slice(4));
  }
  m = ASCTIME.exec(value);
  return m ? utc(Number(m[6]), m[1]!, m[2]!, m.slice(3, 6)) : undefined;
}

/**
 * Parses a `Retry-After` value (RFC 9110 §10.2.3): delta-seconds or an HTTP-date in any of
 * its three forms. Anything else (negative, fractional, `NaN`, a lenient date) is `invalid`.
 * A delay too large to represent is clamped to `Number.MAX_SAFE_INTEGER` ms, so it is still
 * seen as too long rather than ignored. No clock is read: a date stays absolute.
 *
 * @example
 * parseRetryAfter('2')                              // { kind: 'delay', ms: 2000 }
 * parseRetryAfter('Wed, 21 Oct 2026 07:28:00 GMT') // { kind: 'date', epochMs: 1792567680000 }
 * parseRetryAfter('-1')                             // { kind: 'invalid', raw: '-1' }
 * parseRetryAfter(null)                             // undefined
 */
export function parseRetryAfter(value: string | null | undefined): RetryAfter | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return { kind: 'delay', ms: Math.min(Number(text) * 1000, Number.MAX_SAFE_INTEGER) };
  const epochMs = parseHttpDate(text);
  return epochMs === undefined ? { kind: 'invalid', raw: text.slice(0, RAW_LIMIT) } : { kind: 'date', epochMs };
}

/**
 * The wait a parsed `Retry-After` asks for at `nowMs`: a date in the past asks for none;
 * an invalid value (or a date read against a clock that is not a number) asks for nothing
 * (`undefined`).
 *
 * @example
 * retryAfterMs({ kind: 'date', epochMs: 5_000 }, 1_000) // 4000
 */
export function retryAfterMs(retryAfter: RetryAfter | undefined, nowMs: number): number | undefined {
  if (retryAfter?.kind === 'delay') return retryAfter.ms;
  if (retryAfter?.kind !== 'date') return undefined;
  const ms = retryAfter.epochMs - nowMs;
  return Number.isNaN(ms) ? undefined : clamp(ms, 0, Number.MAX_SAFE_INTEGER);
}
