import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './wire-tap.ts';

describe('retryAfterMs', () => {
  it('reads delta-seconds and an HTTP-date, and nothing else', () => {
    const now = Date.parse('Wed, 02 Dec 2026 18:00:00 GMT');
    expect(retryAfterMs('1', now)).toBe(1000);
    expect(retryAfterMs('Wed, 02 Dec 2026 18:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs('Wed, 02 Dec 2026 17:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});
