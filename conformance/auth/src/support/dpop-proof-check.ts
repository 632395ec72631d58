import { webcrypto } from 'node:crypto';

/** What a resource server checks a DPoP proof (RFC 9449 §4.3) against: the request it came with. */
export interface DpopRequestFacts {
  /** The request's HTTP method (`htm`). */
  readonly method: string;
  /** The request's URL without query and fragment (`htu`), as the server was addressed. */
  readonly url: string;
  /** The access token presented with it (`Authorization: DPoP <token>`): `ath` must hash it when present. */
  readonly accessToken?: string;
  /** The server's clock, in seconds since the epoch: `iat` must be within `iatWindowS` of it. */
  readonly nowS: number;
  /** How far `iat` may stray from `nowS` either way (generous: the test does not judge speed). */
  readonly iatWindowS: number;
}

/** A proof that passed every check but the `jti` ledger's (the caller's), with its `jti`; or why it failed (its `jti`, if it had one). */
export type DpopProofVerdict =
  | { readonly ok: true; readonly jti: string; readonly iat: number }
  | { readonly ok: false; readonly reason: string; readonly jti?: string };

const base64url = (bytes: ArrayBuffer | Uint8Array): string => Buffer.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)).toString('base64url');

function decodeJson(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `base64url(SHA-256(token))`: the `ath` a proof presented with `token` carries (RFC 9449 §4.1).
 *
 * @example
 * await accessTokenHashOf('at-1'); // 43 base64url characters
 */
export async function accessTokenHashOf(token: string): Promise<string> {
  return base64url(await webcrypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
}

/**
 * Checks one DPoP proof JWT the way a resource server does (RFC 9449 §4.3), with WebCrypto: three
 * parts; header `typ: dpop+jwt`, `alg: ES256` and a public EC P-256 `jwk` (no private part); the
 * ES256 signature verified with that `jwk`; `htm` = the request's method, `htu` = its URL without
 * query; `iat` within the window of the server's clock; a `jti`; and `ath` = the hash of the
 * access token when present. Whether the `jti` was seen before is the caller's ledger's to say.
 *
 * @example
 * const verdict = await checkDpopProof(req.header('dpop')!, { method: 'POST', url: 'http://127.0.0.1:4000/mcp', accessToken: 'at-1', nowS: Date.now() / 1000, iatWindowS: 300 });
 * if (verdict.ok && seen.has(verdict.jti)) reject('reused jti');
 */
export async function checkDpopProof(proof: string, facts: DpopRequestFacts): Promise<DpopProofVerdict> {
  const parts = proof.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'not a compact JWS' };
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeJson(headerPart);
  const payload = decodeJson(payloadPart);
  if (!header || !payload) return { ok: false, reason: 'undecodable header or payload' };
  const jti = typeof payload.jti === 'string' && payload.jti !== '' ? payload.jti : undefined;
  const fail = (reason: string): DpopProofVerdict => ({ ok: false, reason, ...(jti === undefined ? {} : { jti }) });
  if (header.typ !== 'dpop+jwt') return fail('typ is not dpop+jwt');
  if (header.alg !== 'ES256') return fail(`alg ${String(header.alg)} not accepted`);
  const jwk = header.jwk as Record<string, unknown> | undefined;
  if (!jwk || jwk.kty !== 'EC' || jwk.crv !== 'P-256' || 'd' in jwk) return fail('jwk is not a public EC P-256 key');
  let verified: boolean;
  try {
    const key = await webcrypto.subtle.importKey('jwk', { kty: 'EC', crv: 'P-256', x: jwk.x as string, y: jwk.y as string }, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
    const signed = new TextEncoder().encode(`${headerPart}.${payloadPart}`);
    verified = await webcrypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, Buffer.from(signaturePart, 'base64url'), signed);
  } catch {
    return fail('jwk or signature unusable');
  }
  if (!verified) return fail('bad signature');
  if (jti === undefined) return fail('no jti');
  if (payload.htm !== facts.method.toUpperCase()) return fail(`htm ${String(payload.htm)} is not ${facts.method}`);
  if (payload.htu !== facts.url) return fail(`htu ${String(payload.htu)} is not ${facts.url}`);
  if (typeof payload.iat !== 'number' || Math.abs(payload.iat - facts.nowS) > facts.iatWindowS) return fail('iat outside the window');
  if (payload.ath !== undefined) {
    if (facts.accessToken === undefined || payload.ath !== (await accessTokenHashOf(facts.accessToken))) return fail('ath does not match the access token');
  }
  return { ok: true, jti, iat: payload.iat };
}
