import { describe, expect, it } from 'vitest';
import { blockedError, sendPhase } from './blocked.ts';
import { classify } from './classify.ts';
import { decide, FRESH_CALL } from './decide.ts';

const NEEDS = 'net access to "127.0.0.1:4000"';
const facts = { revision: '2025-11-25', sessionIdSent: true } as const;

describe('a request the runtime refused to send (blocked)', () => {
  it('is a phase of its own, apart from a refused connection and a maybe-sent failure', () => {
    expect(sendPhase(true)).toEqual({ phase: 'before-send' });
    expect(sendPhase(false)).toEqual({ phase: 'after-send' });
    expect(sendPhase({ blocked: true, needs: NEEDS })).toEqual({ phase: 'blocked', needs: NEEDS });
  });

  it('is classified blocked, naming what is missing, on every revision', () => {
    for (const revision of ['2024-11-05', '2025-11-25', '2026-07-28', undefined]) {
      const observation = { kind: 'network', phase: 'blocked', needs: NEEDS, sessionIdSent: false, ...(revision ? { revision } : {}) } as const;
      expect(classify(observation)).toEqual({ kind: 'blocked', needs: NEEDS });
    }
  });

  it('is given up at once with NOT_PERMITTED, even for a call that is safe to replay: never retried, never OUTCOME_UNKNOWN', () => {
    const verdict = classify({ kind: 'network', phase: 'blocked', needs: NEEDS, ...facts });
    for (const operation of [{ method: 'tools/list' }, { method: 'tools/call', toolName: 'charge' }]) {
      expect(decide({ verdict, call: FRESH_CALL, operation, revision: '2025-11-25', nowMs: 0, random: 0.5 })).toEqual({
        type: 'give-up', error: blockedError(NEEDS),
      });
    }
  });

  it('names the missing permission in the error', () => {
    expect(blockedError(NEEDS)).toEqual({
      code: 'NOT_PERMITTED', message: `The runtime did not permit the request to be sent: it needs ${NEEDS}`, details: { needs: NEEDS },
    });
  });
});
