import { invalidOption } from '@mcp-resilience/core';

/** The headers that carry a client's credentials whatever the application adds. */
export const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'cookie', 'proxy-authorization']);

/** A header good for the one request it was made for: a DPoP proof signs one method, URL and moment. */
const SPENT_WITH_ITS_REQUEST = 'dpop';

/**
 * The one definition of a credential the engine uses everywhere: what its own requests carry of
 * the client's, what counts as new credentials, what a store never holds. `Authorization`,
 * `Cookie`, `Proxy-Authorization`, and the names the application adds (`credentialHeaders`).
 *
 * @example
 * const credentials = credentialNames(['X-API-Key']);
 * credentials.has('x-api-key'); // true
 */
export function credentialNames(extra: readonly string[] = []): ReadonlySet<string> {
  if (!Array.isArray(extra)) throw invalidOption('credentialHeaders', 'an array of header names');
  const names = new Set(CREDENTIAL_HEADERS);
  for (const name of extra) {
    if (typeof name !== 'string' || !/^[!#$%&'*+.^_`|~0-9a-z-]+$/i.test(name)) throw invalidOption('credentialHeaders', 'an array of header names');
    names.add(name.toLowerCase());
  }
  return names;
}

/**
 * A request's headers with the client's current credentials in place of those it carried, and
 * no spent DPoP proof: what a request sent again, or one of the engine's own, carries.
 *
 * @example
 * const headers = withCredentials(request.headers, new Headers({ authorization: 'Bearer at-2' }), CREDENTIAL_HEADERS);
 */
export function withCredentials(base: HeadersInit | undefined, current: Headers, names: ReadonlySet<string>): Headers {
  const headers = new Headers(base);
  for (const name of names) headers.delete(name);
  headers.delete(SPENT_WITH_ITS_REQUEST);
  current.forEach((value, name) => headers.set(name, value));
  return headers;
}

/**
 * A request's own headers, to send again as they are but for its DPoP proof, good for that one request only.
 *
 * @example
 * withoutSpentProof(new Headers({ authorization: 'DPoP at', dpop: 'proof-1' })); // authorization only
 */
export function withoutSpentProof(headers: Headers): Headers {
  const copy = new Headers(headers);
  copy.delete(SPENT_WITH_ITS_REQUEST);
  return copy;
}

/**
 * Headers as a plain record for a store: without credentials, a DPoP proof or a session id.
 *
 * @example
 * storableHeaders(new Headers({ accept: 'application/json', authorization: 'Bearer x' })) // { accept: 'application/json' }
 */
export function storableHeaders(headers: Headers, names: ReadonlySet<string> = CREDENTIAL_HEADERS): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!names.has(name) && name !== SPENT_WITH_ITS_REQUEST && name !== 'mcp-session-id') out[name] = value;
  });
  return out;
}

/**
 * Whether a request is an OAuth token request (RFC 6749 §4: a form with `grant_type`): an auth
 * provider renewing credentials through the engine's fetch, as the SDKs' providers do.
 *
 * @example
 * isTokenRequest({ method: 'POST', body: new URLSearchParams({ grant_type: 'refresh_token' }) }); // true
 */
export function isTokenRequest(init: RequestInit): boolean {
  const { body } = init;
  if ((init.method ?? 'GET').toUpperCase() !== 'POST') return false;
  return body instanceof URLSearchParams ? body.has('grant_type') : typeof body === 'string' && /(?:^|&)grant_type=/.test(body);
}
