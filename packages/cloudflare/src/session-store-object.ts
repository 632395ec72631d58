import { DurableObject } from 'cloudflare:workers';
import type { StoredSession } from '@mcp-resilience/client';

/**
 * The Durable Object that keeps MCP sessions (SQLite-backed: declare it under
 * `new_sqlite_classes` in `wrangler.jsonc`), one row per endpoint and identity. Export it from your Worker
 * and reach it through {@link durableSessionStore}; it holds what the engine hands it, which
 * never includes credentials.
 *
 * @example
 * export { McpSessionStore } from '@mcp-resilience/cloudflare';
 */
export class McpSessionStore extends DurableObject {
  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    // `endpoint` holds the engine's key (a hex digest of endpoint and identity). Rows an older
    // version keyed by the URL itself (which may carry a token) are dropped.
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS sessions (endpoint TEXT PRIMARY KEY, session TEXT NOT NULL)');
    ctx.storage.sql.exec("DELETE FROM sessions WHERE endpoint GLOB '*[^0-9a-f]*'");
  }

  getSession(key: string): StoredSession | undefined {
    const rows = this.ctx.storage.sql.exec<{ session: string }>('SELECT session FROM sessions WHERE endpoint = ?', key).toArray();
    return rows[0] === undefined ? undefined : (JSON.parse(rows[0].session) as StoredSession);
  }

  putSession(key: string, session: StoredSession): void {
    this.ctx.storage.sql.exec(
      'INSERT INTO sessions (endpoint, session) VALUES (?, ?) ON CONFLICT (endpoint) DO UPDATE SET session = excluded.session',
      key, JSON.stringify(session),
    );
  }

  deleteSession(key: string): void {
    this.ctx.storage.sql.exec('DELETE FROM sessions WHERE endpoint = ?', key);
  }

  /** How many sessions it holds. */
  count(): number {
    return this.ctx.storage.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM sessions').one().n;
  }
}
