/**
 * A short, stable, non-reversible tag for a session id, for logs that must correlate
 * with a server's own logs without carrying the id itself (32-bit FNV-1a).
 *
 * @example
 * redactSessionId('3f2a9c1e-7b4d-4e8f-9a01-5c6d7e8f9a0b') // 'sid-b38c730e'
 */
export function redactSessionId(id: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return `sid-${hash.toString(16).padStart(8, '0')}`;
}
