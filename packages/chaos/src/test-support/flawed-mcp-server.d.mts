/** A rule of the session contract the server breaks (see flawed-mcp-server.mjs). */
export type Flaw =
  | 'sequential-ids' | 'sessionless-calls' | 'any-protocol-version' | 'dead-400' | 'dead-200-32600' | 'no-id-in-404'
  | 'delete-ignored' | 'refuse-init-after-404' | 'one-session' | 'burst-limit' | 'no-uptime' | 'stale-uptime' | 'stream-not-use'
  | 'modern' | 'modern-session-id' | 'modern-session-404'
  /** Not flaws: random ids written in decimal digits, and a 404 whose body is plain text (MCP asks only for the status). */
  | 'decimal-ids' | 'text-404';

/** Starts the server on 127.0.0.1 (a free port unless `port`), breaking the rules in `flaws`; `idleMs` is its idle budget. */
export function startFlawedServer(options?: { readonly flaws?: readonly Flaw[]; readonly idleMs?: number; readonly port?: number }): Promise<{ readonly url: string; close(): Promise<void> }>;
