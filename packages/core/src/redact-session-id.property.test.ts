import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSessionId } from './redact-session-id.ts';

describe('redactSessionId (invariant 7: no raw ids)', () => {
  it('never contains the id it redacts, and is a stable short tag', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ minLength: 12 }), fc.uuid(), fc.stringMatching(/^[0-9a-f]{32}$/), fc.string({ unit: 'binary', minLength: 12 })), (id) => {
        const tag = redactSessionId(id);
        expect(tag.includes(id)).toBe(false);
        expect(tag).toMatch(/^sid-[0-9a-f]{8}$/);
        expect(redactSessionId(id)).toBe(tag);
      }),
    );
  });
});
