/**
 * Takes out of a message what varies from run to run and runtime to runtime, so a failed
 * scenario's mismatches still compare: addresses and ports, session ids, uptimes.
 *
 * @example
 * scrub('fetch http://127.0.0.1:41233/mcp failed') // 'fetch http://<chaos>/mcp failed'
 */
export function scrub(message: string): string {
  return message
    .replace(/\b(https?:\/\/)(?:127\.\d+\.\d+\.\d+|localhost|\[::1\])(?::\d+)?/g, '$1<chaos>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>')
    .replace(/("?server_uptime_seconds"?\s*:\s*)\d+/g, '$1<n>');
}
