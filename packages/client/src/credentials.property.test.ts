import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ClientHeaders } from './client-headers.ts';
import { credentialNames } from './credentials.ts';

const NAMES = credentialNames(['x-api-key']);
const name = fc.constantFrom('authorization', 'cookie', 'proxy-authorization', 'x-api-key', 'dpop', 'idempotency-key', 'x-request-id', 'traceparent', 'accept');
const value = fc.stringMatching(/^[a-z0-9-]{1,8}$/);
const headers = fc.dictionary(name, value).map((record) => new Headers(record));

describe('invariant 10: a request sent again carries its own headers with the current credentials over them', () => {
  it('after any requests of the client, a request sent again has exactly its own non-credential headers, the latest request\'s credentials, and no DPoP proof', () => {
    fc.assert(fc.property(fc.array(headers, { minLength: 1, maxLength: 6 }), headers, (sent, own) => {
      const client = new ClientHeaders(NAMES, false);
      for (const request of sent) client.note(request);
      const latest = sent.at(-1)!;
      const again = client.onto(own);
      for (const header of ['authorization', 'cookie', 'proxy-authorization', 'x-api-key']) expect(again.get(header)).toBe(latest.get(header));
      for (const header of ['idempotency-key', 'x-request-id', 'traceparent', 'accept']) expect(again.get(header)).toBe(own.get(header));
      expect(again.has('dpop')).toBe(false);
    }), { numRuns: 300 });
  });

  it('new credentials are a change of credential headers only: other headers changing never count', () => {
    fc.assert(fc.property(fc.array(headers, { minLength: 2, maxLength: 6 }), (sent) => {
      const client = new ClientHeaders(NAMES, false);
      let changes = 0;
      for (const [i, request] of sent.entries()) {
        const before = client.version;
        client.note(request);
        const previous = i === 0 ? new Headers() : sent[i - 1]!;
        const changed = [...NAMES].some((header) => request.get(header) !== previous.get(header));
        expect(client.version !== before).toBe(changed);
        changes += +changed;
      }
      expect(client.version).toBe(changes);
    }), { numRuns: 300 });
  });
});
