import { describe, expect, it } from 'vitest';
import {
  adoptSession, DEAD_IDS_KEPT, isIdleBeyond, markDead, needsReinitialize, NO_SESSION, sessionIdToSend, touch,
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
    expect(sessionIdToSend(t)).toBe('a');
    t = adopt(markDead(t, 1), 'b');
    expect(t.current).toMatchObject({ id: 'b', ordinal: 2 });
    expect(sessionIdToSend(t)).toBe('b');
  });

  it('sends nothing once the session is dead, and refuses its id again', () => {
    const t = markDead(adopt(NO_SESSION, 'a'), 1);
    expect(sessionIdToSend(t)).toBeUndefined();
    expect(adoptSession(t, { id: 'a', revision: '2025-11-25', nowMs: 0 })).toMatchObject({ ok: false, error: { code: 'SESSION_ID_REUSED' } });
  });

  it('ignores a death notice for a session already replaced', () => {
    const t = adopt(markDead(adopt(NO_SESSION, 'a'), 1), 'b');
    expect(markDead(t, 1)).toBe(t);
  });

  it('lets concurrent failures on one session share one re-initialization', () => {
    let t = adopt(NO_SESSION, 'a');
    expect(needsReinitialize(t, 1)).toBe(true);
    t = adopt(markDead(t, 1), 'b');
    expect(needsReinitialize(t, 1)).toBe(false);
    expect(needsReinitialize(t, 2)).toBe(true);
    expect(needsReinitialize(NO_SESSION, 0)).toBe(true);
  });

  it('tracks a server that assigns no id', () => {
    const t = adopt(NO_SESSION, undefined);
    expect(t.current?.ordinal).toBe(1);
    expect(sessionIdToSend(t)).toBeUndefined();
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
