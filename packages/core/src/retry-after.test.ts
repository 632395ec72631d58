import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryAfterMs } from './retry-after.ts';

const NOV_6_1994 = Date.UTC(1994, 10, 6, 8, 49, 37);

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('0')).toEqual({ kind: 'delay', ms: 0 });
    expect(parseRetryAfter(' 120 ')).toEqual({ kind: 'delay', ms: 120_000 });
  });

  it('reads the three HTTP-date forms of RFC 9110', () => {
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT')).toEqual({ kind: 'date', epochMs: NOV_6_1994 });
    expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT')).toEqual({ kind: 'date', epochMs: NOV_6_1994 });
    expect(parseRetryAfter('Sun Nov  6 08:49:37 1994')).toEqual({ kind: 'date', epochMs: NOV_6_1994 });
  });

  it('is absent for no value', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('  ')).toBeUndefined();
  });

  it('calls hostile and lenient values invalid instead of guessing', () => {
    for (const raw of ['-1', '1.5', '1e9', 'NaN', 'Infinity', '0x10', 'soon', '2026-12-01', 'Sun, 31 Feb 2026 00:00:00 GMT', 'Sun, 06 Nov 1994 25:00:00 GMT']) {
      expect(parseRetryAfter(raw)).toEqual({ kind: 'invalid', raw });
    }
  });

  it('keeps an enormous delay enormous, and bounds what it keeps of garbage', () => {
    expect(parseRetryAfter('9'.repeat(400))).toEqual({ kind: 'delay', ms: Number.MAX_SAFE_INTEGER });
    expect(parseRetryAfter('x'.repeat(10_000))).toEqual({ kind: 'invalid', raw: 'x'.repeat(64) });
  });
});

describe('retryAfterMs', () => {
  it('turns a date into a wait from now, never negative', () => {
    expect(retryAfterMs({ kind: 'date', epochMs: 10_000 }, 4_000)).toBe(6_000);
    expect(retryAfterMs({ kind: 'date', epochMs: 10_000 }, 20_000)).toBe(0);
  });

  it('ignores invalid and absent values', () => {
    expect(retryAfterMs({ kind: 'invalid', raw: 'x' }, 0)).toBeUndefined();
    expect(retryAfterMs(undefined, 0)).toBeUndefined();
  });
});
