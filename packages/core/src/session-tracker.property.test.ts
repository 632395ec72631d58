import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  adoptSession, beginReinitialize, markDead, NO_SESSION, recoveryStep, touch, type SessionTracker,
} from './session-tracker.ts';

type Op =
  | { readonly op: 'adopt'; readonly id: string | undefined; readonly nowMs: number }
  | { readonly op: 'markDead'; readonly ordinal: number | 'current' }
  | { readonly op: 'touch'; readonly nowMs: number };

/** A small pool of ids, so that a server handing out an id twice (or a dead one) happens often. */
const idArb = fc.option(fc.constantFrom('sess-a', 'sess-b', 'sess-c', 'sess-d'), { nil: undefined, freq: 6 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('adopt' as const), id: idArb, nowMs: fc.nat({ max: 1_000_000 }) }),
  fc.record({ op: fc.constant('markDead' as const), ordinal: fc.oneof(fc.constant('current' as const), fc.integer({ min: -1, max: 12 })) }),
  fc.record({ op: fc.constant('touch' as const), nowMs: fc.nat({ max: 1_000_000 }) }),
);
const adopt = (tracker: SessionTracker, id: string | undefined, nowMs = 0) =>
  adoptSession(tracker, { ...(id === undefined ? {} : { id }), revision: '2025-11-25', nowMs });

describe('session tracker: a dead session id is never sent again (invariant 2)', () => {
  it('the current id (the one sent) is never a killed id, and adoptSession refuses exactly the killed ids', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        let tracker = NO_SESSION;
        // The model: what this test saw happen, independent of the tracker's own bookkeeping.
        const killed = new Set<string>();
        let current: { id: string | undefined; ordinal: number } | undefined;
        let lastOrdinal = 0;
        for (const step of ops) {
          if (step.op === 'adopt') {
            const result = adopt(tracker, step.id, step.nowMs);
            if (step.id !== undefined && killed.has(step.id)) {
              expect(result.ok).toBe(false);
              if (!result.ok) expect(result.error.code).toBe('SESSION_ID_REUSED');
            } else {
              expect(result.ok).toBe(true);
              if (result.ok) {
                tracker = result.tracker;
                expect(tracker.current?.ordinal).toBeGreaterThan(lastOrdinal);
                lastOrdinal = tracker.current!.ordinal;
                current = { id: step.id, ordinal: lastOrdinal };
              }
            }
          } else if (step.op === 'markDead') {
            const ordinal = step.ordinal === 'current' ? (current?.ordinal ?? 0) : step.ordinal;
            tracker = markDead(tracker, ordinal);
            if (current !== undefined && current.ordinal === ordinal) {
              if (current.id !== undefined) killed.add(current.id);
              current = undefined;
            }
          } else {
            tracker = touch(tracker, step.nowMs);
          }
          const sent = tracker.current?.id;
          if (sent !== undefined) expect(killed.has(sent), `sent dead id ${sent}`).toBe(false);
          expect(sent).toBe(current?.id);
        }
      }),
    );
  });
});

describe('session tracker: concurrent calls share one re-initialization (invariant 3)', () => {
  it('one caller starts the re-initialization, the others wait for it, and later ones replay on the new session', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }).chain((n) =>
          fc.record({
            // Calls, in the order they observe the loss; each failed on the current session or an older one.
            calls: fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
            olderFailures: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
            // The re-initialization completes after the k-th call has observed the loss (k >= 1: someone started it).
            completesAfter: fc.integer({ min: 1, max: n }),
            previousSessions: fc.nat({ max: 4 }),
            newId: fc.constantFrom('fresh-1', 'fresh-2'),
          })),
        ({ calls, olderFailures, completesAfter, previousSessions, newId }) => {
          // Sessions 1..m, the older ones dead; every call below failed on session m (or on an older one).
          let tracker = NO_SESSION;
          for (let i = 0; i <= previousSessions; i++) {
            const r = adopt(tracker, `old-${i}`);
            if (!r.ok) throw new Error('setup');
            tracker = i < previousSessions ? markDead(r.tracker, r.tracker.current!.ordinal) : r.tracker;
          }
          const failedOrdinal = tracker.current!.ordinal;
          const steps: string[] = [];
          for (const [position, call] of calls.entries()) {
            // The first to observe the loss failed on the current session; others may have failed on an older one.
            const older = position > 0 && olderFailures[call] === true && failedOrdinal > 1;
            const ordinal = older ? failedOrdinal - 1 : failedOrdinal;
            const step = recoveryStep(tracker, ordinal);
            steps.push(step);
            if (step === 'start') tracker = beginReinitialize(markDead(tracker, ordinal));
            if (position + 1 === completesAfter) {
              const r = adopt(tracker, newId);
              expect(r.ok).toBe(true);
              if (r.ok) tracker = r.tracker;
              expect(tracker.reinitializing).toBe(false);
              for (let o = 0; o <= failedOrdinal; o++) expect(recoveryStep(tracker, o)).toBe('replay');
              // ...while a loss of the new session itself needs another one.
              expect(recoveryStep(tracker, tracker.current!.ordinal)).toBe('start');
            }
          }
          // Exactly one re-initialization; every caller before it completed waited, every later one replayed.
          expect(steps).toEqual(['start', ...Array(completesAfter - 1).fill('wait'), ...Array(calls.length - completesAfter).fill('replay')]);
          expect(tracker.current?.id).toBe(newId);
        },
      ),
    );
  });
});
