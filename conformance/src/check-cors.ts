import { failedFetch, hiddenSessionId } from '@mcp-resilience/core';
import type { Checker } from './check-decisions.ts';
import { need, oneOf, onlyKeys } from './json-input.ts';

const FACTS = ['revision', 'status', 'hasResult', 'sessionIdReadable', 'headersHidden'];

/** `cors` cases: `{ rule: 'hidden-session-id', …facts }` or `{ rule: 'failed-fetch', online }`; the error `undefined` is `null`. */
const cors: Checker = (input, where) => {
  const rule = oneOf(input, 'rule', ['hidden-session-id', 'failed-fetch'] as const, where);
  if (rule === 'failed-fetch') {
    onlyKeys(input, ['rule', 'online'], where);
    return failedFetch({ online: need(input, 'online', 'boolean', where) });
  }
  onlyKeys(input, ['rule', ...FACTS], where);
  const error = hiddenSessionId({
    revision: need(input, 'revision', 'string', where), status: need(input, 'status', 'number', where),
    hasResult: need(input, 'hasResult', 'boolean', where), sessionIdReadable: need(input, 'sessionIdReadable', 'boolean', where),
    headersHidden: need(input, 'headersHidden', 'boolean', where),
  });
  return { error: error ?? null };
};

/** The browser's rules: a session id hidden by CORS, and what a failed fetch means. */
export const CORS_CHECKERS: Readonly<Record<string, Checker>> = { cors };
