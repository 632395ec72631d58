import {
  abandonReinitialize, adoptSession, beginReinitialize, diagnoseLoss, isIdleBeyond, markDead, NO_SESSION, normalizeTrace,
  recoveryStep, redactSessionId, sessionChange, touch, type LossFacts, type Negotiated, type ResilienceEvent, type SessionTracker,
} from '@mcp-resilience/core';
import type { Checker } from './check-decisions.ts';
import { list, need, oneOf, onlyKeys, optional, record } from './json-input.ts';

const LOSS_FACTS = [
  'sessionStartedAtMs', 'lastActivityAtMs', 'failedAtMs', 'serverUptimeSeconds', 'idleBudgetMs', 'busyWindowMs', 'streamOpen',
];

const diagnose: Checker = (input, where) => {
  onlyKeys(input, LOSS_FACTS, where);
  for (const key of ['sessionStartedAtMs', 'lastActivityAtMs', 'failedAtMs']) need(input, key, 'number', where);
  return diagnoseLoss(input as unknown as LossFacts);
};

const TRACKER_OPS = [
  'adopt', 'markDead', 'touch', 'recoveryStep', 'beginReinitialize', 'abandonReinitialize', 'isIdleBeyond',
] as const;

function trackerStep(tracker: SessionTracker, step: Record<string, unknown>, where: string): [SessionTracker, unknown] {
  const op = oneOf(step, 'op', TRACKER_OPS, where);
  switch (op) {
    case 'adopt': {
      onlyKeys(step, ['op', 'id', 'revision', 'nowMs'], where);
      const id = optional(step, 'id', 'string', where);
      const session = { revision: need(step, 'revision', 'string', where), nowMs: need(step, 'nowMs', 'number', where) };
      const result = adoptSession(tracker, id === undefined ? session : { ...session, id });
      return result.ok
        ? [result.tracker, { ok: true, current: result.tracker.current }]
        : [tracker, { ok: false, error: result.error }];
    }
    case 'markDead': {
      onlyKeys(step, ['op', 'ordinal'], where);
      const next = markDead(tracker, need(step, 'ordinal', 'number', where));
      return [next, { current: next.current?.ordinal ?? null, dead: next.dead }];
    }
    case 'touch': {
      onlyKeys(step, ['op', 'nowMs'], where);
      const next = touch(tracker, need(step, 'nowMs', 'number', where));
      return [next, { current: next.current ?? null }];
    }
    case 'recoveryStep':
      onlyKeys(step, ['op', 'failedOrdinal'], where);
      return [tracker, { recoveryStep: recoveryStep(tracker, need(step, 'failedOrdinal', 'number', where)) }];
    case 'beginReinitialize':
    case 'abandonReinitialize': {
      onlyKeys(step, ['op'], where);
      const next = op === 'beginReinitialize' ? beginReinitialize(tracker) : abandonReinitialize(tracker);
      return [next, { reinitializing: next.reinitializing }];
    }
    case 'isIdleBeyond': {
      onlyKeys(step, ['op', 'nowMs', 'idleBudgetMs'], where);
      const idle = isIdleBeyond(tracker, need(step, 'nowMs', 'number', where), need(step, 'idleBudgetMs', 'number', where));
      return [tracker, { idleBeyond: idle }];
    }
  }
}

const sessionTracker: Checker = (input, where) => {
  onlyKeys(input, ['steps'], where);
  let tracker = NO_SESSION;
  const results = list(input, 'steps', where).map((value, i) => {
    const [next, result] = trackerStep(tracker, record(value, `${where} step ${i}`), `${where} step ${i}`);
    tracker = next;
    return result;
  });
  return { results };
};

function negotiated(value: unknown, where: string): Negotiated {
  const o = record(value, where);
  onlyKeys(o, ['revision', 'capabilities'], where);
  need(o, 'revision', 'string', where);
  return o as unknown as Negotiated;
}

const sessionChangeCheck: Checker = (input, where) => {
  onlyKeys(input, ['before', 'after'], where);
  const change = sessionChange(negotiated(input.before, `${where} before`), negotiated(input.after, `${where} after`));
  return { change: change ?? null };
};

const events: Checker = (input, where) => {
  const fn = oneOf(input, 'fn', ['normalizeTrace', 'redactSessionId'], where);
  if (fn === 'redactSessionId') {
    onlyKeys(input, ['fn', 'id'], where);
    return { redacted: redactSessionId(need(input, 'id', 'string', where)) };
  }
  onlyKeys(input, ['fn', 'events'], where);
  const trace = list(input, 'events', where).map((event, i) => record(event, `${where} event ${i}`));
  return { trace: normalizeTrace(trace as unknown as ResilienceEvent[]) };
};

/** Checkers of the areas about sessions and their events. */
export const SESSION_CHECKERS: Readonly<Record<string, Checker>> = {
  diagnose, 'session-tracker': sessionTracker, 'session-change': sessionChangeCheck, events,
};
