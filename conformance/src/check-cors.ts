import { failedFetch, sessionIdUnread, unreadSessionId } from '@mcp-resilience/core';
import type { Checker } from './check-decisions.ts';
import { need, oneOf, onlyKeys } from './json-input.ts';

const FACTS = ['revision', 'status', 'hasResult', 'sessionIdReadable', 'headersHidden'];

/**
 * `cors` cases: `{ rule: 'session-id-unread', …initialize facts }` → `{ unread }`,
 * `{ rule: 'unread-session-id', revision, status }` → what the answer proves, or
 * `{ rule: 'failed-fetch', offlineAtStart, online }`.
 */
const cors: Checker = (input, where) => {
  const rule = oneOf(input, 'rule', ['session-id-unread', 'unread-session-id', 'failed-fetch'] as const, where);
  if (rule === 'failed-fetch') {
    onlyKeys(input, ['rule', 'offlineAtStart', 'online'], where);
    return failedFetch({ offlineAtStart: need(input, 'offlineAtStart', 'boolean', where), online: need(input, 'online', 'boolean', where) });
  }
  if (rule === 'unread-session-id') {
    onlyKeys(input, ['rule', 'revision', 'status'], where);
    return unreadSessionId({ revision: need(input, 'revision', 'string', where), status: need(input, 'status', 'number', where) });
  }
  onlyKeys(input, ['rule', ...FACTS], where);
  return {
    unread: sessionIdUnread({
      revision: need(input, 'revision', 'string', where), status: need(input, 'status', 'number', where),
      hasResult: need(input, 'hasResult', 'boolean', where), sessionIdReadable: need(input, 'sessionIdReadable', 'boolean', where),
      headersHidden: need(input, 'headersHidden', 'boolean', where),
    }),
  };
};

/** The browser's rules: a session id CORS may hide and what proves it was, and what a failed fetch means. */
export const CORS_CHECKERS: Readonly<Record<string, Checker>> = { cors };
