import { invalidOption } from '@mcp-resilience/core';

/**
 * The `identity` option, checked: a non-empty string, or absent (one anonymous identity).
 * Throws `INVALID_OPTION` naming it.
 *
 * @example
 * checkedIdentity('user:42'); // 'user:42'
 */
export function checkedIdentity(identity: unknown): string | undefined {
  if (identity === undefined || (typeof identity === 'string' && identity.length > 0)) return identity;
  throw invalidOption('identity', 'a non-empty string (the user, tenant or agent the stored session belongs to)');
}

/**
 * The key under which a session store keeps the session of `endpoint` for `identity`: the
 * SHA-256 of both, in hex. It holds no secret: a token in the URL's path or query (`?api_key=…`)
 * and the identity itself are hashed, never written; endpoints that differ in any part of the
 * URL but the fragment, or identities that differ, get different keys. Rejects where the runtime
 * has no `crypto.subtle` (a page that is not a secure context): such a runtime stores nothing.
 *
 * @example
 * const key = await sessionStoreKey('https://mcp.example.com/mcp?api_key=secret', 'user:42');
 * await store.get(key); // the session user:42 stored for that endpoint
 */
export async function sessionStoreKey(endpoint: string, identity?: string): Promise<string> {
  const url = new URL(endpoint);
  url.hash = '';
  // The identity first and length-prefixed: no identity and URL pair spells another's.
  const text = `mcp-resilience/session\n${identity === undefined ? '-' : `${identity.length}:${identity}`}\n${url.href}`;
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
