import type { SessionStore, StoredSession } from '@mcp-resilience/client';
import { storableSession } from '@mcp-resilience/client/adapter';
import { ResilienceError } from '@mcp-resilience/core';
import { denoApi, type DenoKv } from './deno-api.ts';

/** The key prefix under which sessions are kept, by the engine's key (a digest of endpoint and identity). */
export const KV_PREFIX = ['mcp-resilience', 'session'] as const;

/** Deletes the sessions an older version kept under the endpoint's URL (keys now are the engine's hex digest). */
async function dropUrlKeyed(kv: DenoKv): Promise<void> {
  if (!kv.list) return;
  for await (const { key } of kv.list({ prefix: KV_PREFIX })) {
    const name = key[KV_PREFIX.length];
    if (typeof name === 'string' && name.includes(':')) await kv.delete(key as (string | number)[]);
  }
}

/**
 * A session store in `Deno.Kv`: sessions outlive the process (a restart, another isolate of
 * Deno Deploy) and are shared by every engine that opens the same database. Keys are the
 * engine's digest of endpoint and identity (no token of the URL); credentials are never part of
 * a stored session. Opt-in: the engine keeps sessions in memory unless given one.
 *
 * @example
 * const sessionStore = await KvSessionStore.open(); // needs --unstable-kv (and --allow-read/--allow-write for a path)
 * const client = await connect('http://127.0.0.1:3000/mcp', { sessionStore, resumeStored: true, identity: 'user-42' });
 * // …
 * sessionStore.close();
 */
export class KvSessionStore implements SessionStore {
  readonly #kv: DenoKv;
  /** Entries an older version kept under the endpoint's URL itself (which may carry a token) being dropped: the first call waits for it. */
  readonly #swept: Promise<void>;

  /** A store on an open `Deno.Kv`; its owner closes it. */
  constructor(kv: DenoKv) {
    this.#kv = kv;
    this.#swept = dropUrlKeyed(kv).catch(() => {});
  }

  /**
   * Opens `Deno.openKv(path)` (Deno's default database without a path) as a store that closes it.
   *
   * @example
   * const store = await KvSessionStore.open('./sessions.db');
   */
  static async open(path?: string): Promise<KvSessionStore> {
    const { openKv } = denoApi();
    if (!openKv) {
      throw new ResilienceError({
        code: 'RUNTIME_UNSUPPORTED', details: { needs: 'Deno.openKv' },
        message: 'Deno.openKv is not available: run Deno with --unstable-kv (or "unstable": ["kv"] in deno.json)',
      });
    }
    return new KvSessionStore(await openKv(path));
  }

  async get(key: string): Promise<StoredSession | undefined> {
    await this.#swept;
    return (await this.#kv.get<StoredSession>([...KV_PREFIX, key])).value ?? undefined;
  }

  async set(key: string, session: StoredSession): Promise<void> {
    await this.#swept;
    await this.#kv.set([...KV_PREFIX, key], storableSession(session));
  }

  async delete(key: string): Promise<void> {
    await this.#swept;
    await this.#kv.delete([...KV_PREFIX, key]);
  }

  /** Closes the database. */
  close(): void {
    this.#kv.close();
  }
}
