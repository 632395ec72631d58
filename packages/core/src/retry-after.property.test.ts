import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classify } from './classify.ts';
import { createRetryPolicy, decide, FRESH_CALL } from './decide.ts';
import { parseRetryAfter, retryAfterMs } from './retry-after.ts';
import { nowMsArb, retryAfterHeaderArb, saneRandomArb, sessionfulRevisionArb } from './test-support/arbitraries.ts';

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');
const time = (d: Date) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/** The three HTTP-date forms of RFC 9110 §5.6.7 for one instant. */
const httpDateForms = (d: Date) => ({
  imf: d.toUTCString(),
  rfc850: `${DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${pad(d.getUTCFullYear() % 100)} ${time(d)} GMT`,
  asctime: `${DAYS[d.getUTCDay()]!.slice(0, 3)} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${time(d)} ${d.getUTCFullYear()}`,
});
/** Whole seconds (HTTP-dates carry no milliseconds), 1970–2069 so the two-digit RFC 850 year is unambiguous. */
const instantArb = fc.integer({ min: 0, max: 3_155_759_999 }).map((s) => new Date(s * 1000));

describe('parseRetryAfter: total and non-negative (invariant 4)', () => {
  it('never throws, and every parsed value asks for a finite wait >= 0 at any clock reading', () => {
    fc.assert(
      fc.property(fc.oneof(retryAfterHeaderArb, fc.constantFrom(null, undefined)), nowMsArb, (header, nowMs) => {
        const parsed = parseRetryAfter(header);
        if (parsed === undefined) return;
        if (parsed.kind === 'delay') expect(Number.isInteger(parsed.ms) && parsed.ms >= 0).toBe(true);
        if (parsed.kind === 'date') expect(Number.isFinite(parsed.epochMs)).toBe(true);
        if (parsed.kind === 'invalid') expect(parsed.raw.length).toBeLessThanOrEqual(64);
        const wait = retryAfterMs(parsed, nowMs);
        if (wait !== undefined) {
          expect(Number.isNaN(wait)).toBe(false);
          expect(wait).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });

  it('reads delta-seconds as whole seconds, clamped to a safe integer', () => {
    fc.assert(
      fc.property(fc.oneof(fc.nat(), fc.constant(Number.MAX_SAFE_INTEGER)), (seconds) => {
        expect(parseRetryAfter(String(seconds))).toEqual({ kind: 'delay', ms: Math.min(seconds * 1000, Number.MAX_SAFE_INTEGER) });
      }),
    );
  });

  it('reads every HTTP-date form as the same absolute instant', () => {
    fc.assert(
      fc.property(instantArb, (instant) => {
        for (const form of Object.values(httpDateForms(instant))) {
          expect(parseRetryAfter(form), form).toEqual({ kind: 'date', epochMs: instant.getTime() });
        }
      }),
    );
  });
});

describe('Retry-After from the wire, end to end (invariant 4)', () => {
  it('an HTTP-date is a wait relative to nowMs: honoured within the cap, refused beyond it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3_600, max: 3_155_756_399 }).map((s) => s * 1000), // whole seconds, dates stay within 1970–2069
        fc.integer({ min: -3_600, max: 3_600 }),
        fc.constantFrom(429, 503),
        fc.constantFrom('imf' as const, 'rfc850' as const, 'asctime' as const),
        sessionfulRevisionArb, saneRandomArb, fc.integer({ min: 0, max: 3_600_000 }),
        (nowMs, offsetSeconds, status, form, revision, random, capMs) => {
          const header = httpDateForms(new Date(nowMs + offsetSeconds * 1000))[form];
          const verdict = classify({ kind: 'http', status, revision, sessionIdSent: true, retryAfter: header, body: '' });
          const policy = createRetryPolicy({ retryAfterCapMs: capMs, backoff: { maxAttempts: 5, maxTotalDelayMs: 10_000_000 } });
          const action = decide({ verdict, call: FRESH_CALL, operation: { method: 'tools/call', toolName: 'pay' }, revision, policy, nowMs, random });
          const wanted = Math.max(0, offsetSeconds * 1000);
          if (wanted > capMs) {
            expect(action).toMatchObject({ type: 'give-up', error: { code: 'RETRY_AFTER_TOO_LONG' } });
          } else {
            expect(action.type).toBe('retry');
            if (action.type === 'retry') {
              expect(action.delayMs).toBeGreaterThanOrEqual(wanted);
              expect(action.delayMs).toBeLessThanOrEqual(Math.ceil(wanted * 1.1));
            }
          }
        },
      ),
    );
  });
});
