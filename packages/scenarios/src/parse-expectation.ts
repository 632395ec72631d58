import { counts, fail, int, object, strings, text, type Raw } from './parse-fields.ts';
import { HTTP_METHODS, type ScenarioExpectation } from './scenario.ts';

/** The fields of `expect`, in the order a report's wire summary shows them. */
export const EXPECTATION_FIELDS = ['trace', 'posts', 'postCounts', 'requestCounts', 'ledger', 'sessions'] as const;

function checkField(raw: Raw, key: (typeof EXPECTATION_FIELDS)[number], where: string): void {
  const value = raw[key];
  if (value === undefined) return;
  const at = `${where}.${key}`;
  switch (key) {
    case 'trace':
      if (!Array.isArray(value)) fail(at, 'must be a list of normalized events');
      value.forEach((event, i) => {
        const e = object(event, `${at}[${i}]`, Object.keys(event ?? {}), ['type']);
        text(e.type, `${at}[${i}].type`);
      });
      return;
    case 'posts':
      strings(value, at);
      return;
    case 'postCounts':
    case 'ledger':
      counts(value, at);
      return;
    case 'requestCounts':
      counts(object(value, at, HTTP_METHODS), at);
      return;
    case 'sessions':
      if (!Array.isArray(value)) fail(at, 'must be a list');
      value.forEach((s, i) => {
        const session = object(s, `${at}[${i}]`, ['ordinal', 'subscriptions', 'logLevel'], ['ordinal', 'subscriptions']);
        int(session.ordinal, `${at}[${i}].ordinal`, 1, 1_000_000);
        strings(session.subscriptions, `${at}[${i}].subscriptions`);
        if (session.logLevel !== undefined) text(session.logLevel, `${at}[${i}].logLevel`);
      });
  }
}

/**
 * Reads `expect` (the trace required) or, with `partial`, the `expect` of a declared
 * difference (any of the fields, at least one).
 */
export function parseExpectation(value: unknown, where: string, partial: true): Partial<ScenarioExpectation>;
export function parseExpectation(value: unknown, where: string, partial?: false): ScenarioExpectation;
export function parseExpectation(value: unknown, where: string, partial = false): Partial<ScenarioExpectation> {
  const raw = object(value, where, EXPECTATION_FIELDS, partial ? [] : ['trace']);
  if (partial && Object.keys(raw).length === 0) fail(where, `must replace at least one of ${EXPECTATION_FIELDS.join(', ')}`);
  for (const key of EXPECTATION_FIELDS) checkField(raw, key, where);
  return raw as Partial<ScenarioExpectation>;
}
