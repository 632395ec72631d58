import { describe, expect, it } from 'vitest';
import { redactSessionId } from './redact-session-id.ts';

describe('redactSessionId', () => {
  it('is stable, short and does not carry the id', () => {
    const id = '3f2a9c1e-7b4d-4e8f-9a01-5c6d7e8f9a0b';
    expect(redactSessionId(id)).toBe(redactSessionId(id));
    expect(redactSessionId(id)).toMatch(/^sid-[0-9a-f]{8}$/);
    expect(redactSessionId(id)).not.toBe(redactSessionId(`${id}x`));
    expect(redactSessionId('')).toBe('sid-811c9dc5');
  });
});
