import { describe, expect, it } from 'vitest';
import { EXPOSE_SESSION_ID_FIX, failedFetch, hiddenSessionId } from './cors.ts';
import { isResilienceError, ResilienceError } from './errors.ts';

const hidden = { revision: '2025-11-25', status: 200, hasResult: true, sessionIdReadable: false, headersHidden: true } as const;

describe('hiddenSessionId', () => {
  it('names the fix when a sessionful initialize answered 200 but its session id was hidden', () => {
    const info = hiddenSessionId(hidden);
    expect(info).toMatchObject({ code: 'SESSION_ID_HIDDEN', details: { revision: '2025-11-25', fix: EXPOSE_SESSION_ID_FIX } });
    expect(info!.message).toContain('Access-Control-Expose-Headers: Mcp-Session-Id');
    expect(isResilienceError(new ResilienceError(info!), 'SESSION_ID_HIDDEN')).toBe(true);
  });

  it.each([
    ['a runtime that hides no headers (a server that runs without sessions)', { headersHidden: false }],
    ['a readable session id', { sessionIdReadable: true }],
    ['no initialize result', { hasResult: false }],
    ['another status', { status: 202 }],
    ['a revision without sessions', { revision: '2026-07-28' }],
  ])('says nothing for %s', (_, change) => {
    expect(hiddenSessionId({ ...hidden, ...change })).toBeUndefined();
  });
});

describe('failedFetch', () => {
  it('reads a failure while online as blocked or unreachable, maybe sent', () => {
    expect(failedFetch({ online: true })).toMatchObject({ kind: 'blocked-or-unreachable', notSent: false });
    expect(failedFetch({ online: true }).message).toMatch(/^blocked or unreachable \(CORS, network\)/);
  });

  it('reads a failure while offline as not sent', () => {
    expect(failedFetch({ online: false })).toMatchObject({ kind: 'offline', notSent: true });
  });
});
