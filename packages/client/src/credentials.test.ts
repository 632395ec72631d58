import { describe, expect, it } from 'vitest';
import { credentialProblem } from './credential-refusal.ts';
import { CREDENTIAL_HEADERS, credentialNames, isTokenRequest, storableHeaders, withCredentials } from './credentials.ts';

const refused = (status: number, challenge?: string) => new Response(null, { status, headers: challenge ? { 'www-authenticate': challenge } : {} });

describe('what counts as a credential', () => {
  it('Authorization, Cookie, Proxy-Authorization and the names the application adds, in any case', () => {
    expect([...credentialNames(['X-API-Key'])]).toEqual([...CREDENTIAL_HEADERS, 'x-api-key']);
    for (const bad of [['bad name'], [''], [42]] as unknown[][]) {
      expect(() => credentialNames(bad as string[])).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    }
  });

  it('a request sent again keeps its own headers, with the current credentials in place of its own and no DPoP proof', () => {
    const own = new Headers({ authorization: 'Bearer old', 'x-api-key': 'k0', 'idempotency-key': 'A', dpop: 'proof-1' });
    const current = new Headers({ authorization: 'Bearer new' });
    const sent = withCredentials(own, current, credentialNames(['x-api-key']));
    expect(Object.fromEntries(sent)).toEqual({ authorization: 'Bearer new', 'idempotency-key': 'A' });
  });

  it('a store gets no credential, no DPoP proof and no session id', () => {
    const headers = new Headers({ accept: 'a', authorization: 'x', 'x-api-key': 'k', dpop: 'p', 'mcp-session-id': 's', 'x-tenant': 't' });
    expect(storableHeaders(headers, credentialNames(['x-api-key']))).toEqual({ accept: 'a', 'x-tenant': 't' });
  });
});

describe('what a refusal says of the credentials', () => {
  it('401: the token; 403 with the challenge\'s own error=insufficient_scope: the scope; anything else: nothing', () => {
    expect(credentialProblem(refused(401))).toBe('token');
    expect(credentialProblem(refused(403, 'Bearer error="insufficient_scope", scope="mcp:tools"'))).toBe('scope');
    expect(credentialProblem(refused(403, 'Bearer realm="x", error=insufficient_scope'))).toBe('scope');
    // The words elsewhere in the challenge (a description, another parameter) are not its error.
    expect(credentialProblem(refused(403, 'Bearer error="invalid_token", error_description="not insufficient_scope"'))).toBeUndefined();
    expect(credentialProblem(refused(403, 'Bearer scope="insufficient_scope"'))).toBeUndefined();
    expect(credentialProblem(refused(403))).toBeUndefined();
    expect(credentialProblem(refused(404))).toBeUndefined();
  });

  it('an OAuth token request is a form POST with grant_type', () => {
    expect(isTokenRequest({ method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token' }) })).toBe(true);
    expect(isTokenRequest({ method: 'post', body: 'client_id=c&grant_type=refresh_token' })).toBe(true);
    expect(isTokenRequest({ method: 'POST', body: '{"grant_type":"x"}' })).toBe(false);
    expect(isTokenRequest({ method: 'GET' })).toBe(false);
  });
});
