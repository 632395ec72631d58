import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeTrace, type NormalizedEvent, type ResilienceEvent } from './events.ts';
import { eventArb } from './test-support/arbitraries.ts';

const SESSION_FIELDS = ['session', 'from', 'to'];
/** Times, waits and ages: what the design says a normalized trace has none of (invariant 7). */
const VARYING_FIELDS = ['atMs', 'delayMs', 'sessionAgeMs', 'idleMs'];

const traceArb = fc.array(eventArb(), { maxLength: 25 });
/**
 * Session numbers as a real engine hands them out: each new session numbered above every earlier
 * one, from any start. Built by relabelling an arbitrary trace's sessions, in order of first
 * appearance, with increasing numbers.
 */
const realisticTraceArb = fc
  .tuple(traceArb, fc.nat({ max: 100 }), fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 64, maxLength: 64 }))
  .map(([trace, start, gaps]) => {
    const relabel = new Map<number, number>();
    let newest = start;
    const label = (n: number) => relabel.get(n) ?? (relabel.set(n, (newest += gaps[relabel.size % gaps.length]!)), newest);
    return trace.map((event) =>
      Object.fromEntries(Object.entries(event).map(([k, v]) => [k, SESSION_FIELDS.includes(k) && typeof v === 'number' ? label(v) : v])),
    ) as unknown as ResilienceEvent[];
  });

/** The session numbers of a trace, in the order normalizeTrace meets them. */
function sessionNumbers(trace: readonly (ResilienceEvent | NormalizedEvent)[]): number[] {
  return trace.flatMap((event) =>
    Object.entries(event).filter(([k, v]) => SESSION_FIELDS.includes(k) && typeof v === 'number').map(([, v]) => v as number));
}

describe('normalizeTrace (invariant 7)', () => {
  it('is idempotent', () => {
    fc.assert(
      fc.property(traceArb, (trace) => {
        const once = normalizeTrace(trace);
        expect(normalizeTrace(once as unknown as ResilienceEvent[])).toEqual(once);
      }),
    );
  });

  it('renumbers sessions 1, 2, 3… in order of first appearance, keeping equal numbers equal and distinct ones distinct', () => {
    fc.assert(
      fc.property(traceArb, (trace) => {
        const before = sessionNumbers(trace);
        const after = sessionNumbers(normalizeTrace(trace));
        expect(after.length).toBe(before.length);
        for (let i = 0; i < before.length; i++) {
          for (let j = 0; j < before.length; j++) expect(after[i] === after[j]).toBe(before[i] === before[j]);
        }
        const firsts = after.filter((n, i) => after.indexOf(n) === i);
        expect(firsts).toEqual(firsts.map((_, i) => i + 1));
      }),
    );
  });

  it('preserves the order of session numbers in a trace whose sessions appear in increasing order', () => {
    fc.assert(
      fc.property(realisticTraceArb, (trace) => {
        const before = sessionNumbers(trace);
        const after = sessionNumbers(normalizeTrace(trace));
        for (let i = 0; i < before.length; i++) {
          for (let j = 0; j < before.length; j++) expect(after[i]! < after[j]!).toBe(before[i]! < before[j]!);
        }
      }),
    );
  });

  it('drops times, waits and ages and undefined fields, and keeps everything else as it was', () => {
    fc.assert(
      fc.property(traceArb, (trace) => {
        const normalized = normalizeTrace(trace);
        expect(normalized.length).toBe(trace.length);
        normalized.forEach((out, i) => {
          const event = trace[i]!;
          for (const key of VARYING_FIELDS) expect(Object.hasOwn(out, key), `${key} kept`).toBe(false);
          for (const [key, value] of Object.entries(out)) expect(value).not.toBeUndefined();
          for (const [key, value] of Object.entries(event)) {
            if (VARYING_FIELDS.includes(key) || SESSION_FIELDS.includes(key) || value === undefined || key === 'serverUptimeSeconds') continue;
            expect(out[key]).toEqual(value);
          }
          expect(out.type).toBe(event.type);
        });
      }),
    );
  });
});
