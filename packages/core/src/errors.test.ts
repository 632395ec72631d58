import { describe, expect, it } from 'vitest';
import { isResilienceError, ResilienceError, resilienceCodeOf, SURFACED_ERROR_CODE } from './errors.ts';

describe('ResilienceError', () => {
  it('carries code, details and cause', () => {
    const cause = new TypeError('fetch failed');
    const error = new ResilienceError({ code: 'OUTCOME_UNKNOWN', message: 'm', details: { status: 502 } }, { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ResilienceError');
    expect(error.code).toBe('OUTCOME_UNKNOWN');
    expect(error.details).toEqual({ status: 502 });
    expect(error.cause).toBe(cause);
  });

  it('defaults details to an empty object', () => {
    expect(new ResilienceError({ code: 'SESSION_LOST', message: 'm' }).details).toEqual({});
  });
});

describe('resilienceCodeOf', () => {
  it('reads the code of a ResilienceError and of the SDK error a stream give-up becomes', () => {
    expect(resilienceCodeOf(new ResilienceError({ code: 'SESSION_LOST', message: 'm' }))).toBe('SESSION_LOST');
    expect(resilienceCodeOf(Object.assign(new Error('MCP error -32090: …'), { code: SURFACED_ERROR_CODE, data: { code: 'OUTCOME_UNKNOWN' } }))).toBe('OUTCOME_UNKNOWN');
  });

  it('gives nothing for anything else', () => {
    for (const value of [null, undefined, new Error('x'), { code: -32090 }, { code: -32090, data: { code: 'MADE_UP' } }, { code: -32000, data: { code: 'SESSION_LOST' } }]) {
      expect(resilienceCodeOf(value)).toBeUndefined();
    }
  });
});

describe('isResilienceError', () => {
  it('recognises the brand, also on an object from another copy of the package', () => {
    const foreign = Object.assign(new Error('x'), { code: 'SESSION_LOST', [Symbol.for('mcp-resilience.error')]: true });
    expect(isResilienceError(foreign)).toBe(true);
    expect(isResilienceError(foreign, 'SESSION_LOST')).toBe(true);
    expect(isResilienceError(foreign, 'OUTCOME_UNKNOWN')).toBe(false);
  });

  it('rejects look-alikes without the brand', () => {
    for (const value of [null, undefined, 'SESSION_LOST', new Error('x'), { code: 'SESSION_LOST' }]) {
      expect(isResilienceError(value)).toBe(false);
    }
  });
});
