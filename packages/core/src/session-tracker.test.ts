import { describe, expect, it } from 'vitest';
import {
  abandonReinitialize, adoptSession, beginReinitialize, DEAD_IDS_KEPT, isIdleBeyond, markDead, NO_SESSION, recoveryStep, touch,
  type SessionTracker,
} from './session-tracker.ts';

function adopt(tracker: SessionTracker, id: string | undefined, nowMs = 0): SessionTracker {
  const result = adoptSession(tracker, { ...(id === undefined ? {} : { id }), revision: '2025-11-25', nowMs });
  if (!result.ok) throw new Error(result.error.code);
  return result.tracker;
}

describe('session tracker', () => {
  it('numbers sessions and sends the current id', () => {
    let t = adopt(NO_SESSION, 'a');
    expect(t.current).toMatchObject({ id: 'a', ordinal: 1 });
    expect(t.current?.id).toBe('a');
    t = adopt(markDead(t, 1), 'b');
    expect(t.current).toMatchObject({ id: 'b', ordinal: 2 });
    expect(t.current?.id).toBe('b');
  });

  it('sends nothing once the session is dead, and refuses its id again', () => {
    const t = markDead(adopt(NO_SESSION, 'a'), 1);
    expect(t.current?.id).toBeUndefined();
    expect(adoptSession(t, { id: 'a', revision: '2025-11-25', nowMs: 0 })).toMatchObject({ ok: false, error: { code: 'SESSION_ID_REUSED' } });
  });

  it('ignores a death notice for a session already replaced', () => {
    const t = adopt(markDead(adopt(NO_SESSION, 'a'), 1), 'b');
    expect(markDead(t, 1)).toBe(t);
  });

  it('lets concurrent failures on one session share one re-initialization', () => {
    let t = adopt(NO_SESSION, 'a');
    expect(recoveryStep(t, 1)).toBe('start');
    t = beginReinitialize(markDead(t, 1));
    expect(recoveryStep(t, 1)).toBe('wait'); // a second caller, while the first re-initializes
    t = adopt(t, 'b');
    expect(t.reinitializing).toBe(false);
    expect(recoveryStep(t, 1)).toBe('replay');
    expect(recoveryStep(t, 2)).toBe('start');
    expect(recoveryStep(NO_SESSION, 0)).toBe('start');
  });

  it('lets the next caller start again after a failed re-initialization', () => {
    const t = beginReinitialize(markDead(adopt(NO_SESSION, 'a'), 1));
    expect(recoveryStep(abandonReinitialize(t), 1)).toBe('start');
  });

  it('tracks a server that assigns no id', () => {
    const t = adopt(NO_SESSION, undefined);
    expect(t.current?.ordinal).toBe(1);
    expect(t.current?.id).toBeUndefined();
    expect(markDead(t, 1).dead).toEqual([]);
  });

  it('knows when the session has been idle too long', () => {
    let t = adopt(NO_SESSION, 'a', 0);
    t = touch(t, 1_000);
    expect(isIdleBeyond(t, 1_999, 1_000)).toBe(false);
    expect(isIdleBeyond(t, 2_000, 1_000)).toBe(true);
    expect(isIdleBeyond(NO_SESSION, 1e12, 1)).toBe(false);
    expect(touch(NO_SESSION, 5)).toBe(NO_SESSION);
  });

  it('bounds the memory of dead ids', () => {
    let t = NO_SESSION;
    for (let i = 0; i < DEAD_IDS_KEPT + 10; i++) t = markDead(adopt(t, `id-${i}`), t.ordinals + 1);
    expect(t.dead).toHaveLength(DEAD_IDS_KEPT);
    expect(t.dead.at(-1)).toBe(`id-${DEAD_IDS_KEPT + 9}`);
  });
});
