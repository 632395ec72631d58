import { describe, expect, it } from 'vitest';
import { EXPOSE_SESSION_ID_FIX, failedFetch, sessionIdUnread, unreadSessionId } from './cors.ts';
import { isResilienceError, ResilienceError } from './errors.ts';

const unread = { revision: '2025-11-25', status: 200, hasResult: true, sessionIdReadable: false, headersHidden: true } as const;

describe('sessionIdUnread', () => {
  it('holds when a sessionful initialize answered 200 cross-origin with no readable session id', () => {
    expect(sessionIdUnread(unread)).toBe(true);
  });

  it.each([
    ['a runtime that hides no headers (a server that runs without sessions)', { headersHidden: false }],
    ['a readable session id', { sessionIdReadable: true }],
    ['no initialize result', { hasResult: false }],
    ['another status', { status: 202 }],
    ['a revision without sessions', { revision: '2026-07-28' }],
  ])('does not hold for %s', (_, change) => {
    expect(sessionIdUnread({ ...unread, ...change })).toBe(false);
  });
});

describe('unreadSessionId', () => {
  it("reads the server's 400 to a request without a session id as the proof that it was hidden, and names the fix", () => {
    const proof = unreadSessionId({ revision: '2025-11-25', status: 400 });
    expect(proof).toMatchObject({ kind: 'hidden', error: { code: 'SESSION_ID_HIDDEN', details: { revision: '2025-11-25', status: 400, fix: EXPOSE_SESSION_ID_FIX } } });
    if (proof.kind !== 'hidden') throw new Error('not hidden');
    expect(proof.error.message).toContain('Access-Control-Expose-Headers: Mcp-Session-Id');
    expect(isResilienceError(new ResilienceError(proof.error), 'SESSION_ID_HIDDEN')).toBe(true);
  });

  it.each([200, 202, 204])('reads %i as a server that runs without sessions', (status) => {
    expect(unreadSessionId({ revision: '2025-06-18', status })).toEqual({ kind: 'sessionless' });
  });

  it.each([401, 403, 404, 405, 429, 500, 503])('reads %i as no proof either way', (status) => {
    expect(unreadSessionId({ revision: '2025-11-25', status })).toEqual({ kind: 'undecided' });
  });
});

describe('failedFetch', () => {
  it('reads a failure while online as blocked or unreachable, maybe sent, whatever it was at the start', () => {
    for (const offlineAtStart of [false, true]) {
      expect(failedFetch({ offlineAtStart, online: true })).toMatchObject({ kind: 'blocked-or-unreachable', notSent: false });
      expect(failedFetch({ offlineAtStart, online: true }).message).toMatch(/^blocked or unreachable \(CORS, network\)/);
    }
  });

  it('reads a failure as not sent only when the runtime was offline from the start of the request', () => {
    expect(failedFetch({ offlineAtStart: true, online: false })).toMatchObject({ kind: 'offline', notSent: true });
  });

  it('reads a request that started online and failed offline as maybe sent: the device may have lost its network after sending', () => {
    expect(failedFetch({ offlineAtStart: false, online: false })).toEqual({
      kind: 'went-offline', notSent: false, message: 'offline since the request started: maybe sent',
    });
  });
});
