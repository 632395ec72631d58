import type { ChaosServer } from './chaos-contract.ts';
import type { PoolServerOptions } from './pool-options.ts';

/** How many servers a pool holds at most: a runner that forgets to stop them meets a limit, not an exhausted machine. */
export const MAX_POOL_SERVERS = 64;

/** A pool that is full: `POST {control}/servers` answers 503 until one is stopped. */
export class PoolFullError extends Error {
  readonly code = 'CHAOS_POOL_FULL';
  override name = 'PoolFullError';
}

/** What `POST {control}/servers` answers and `GET {control}/servers` lists. */
export interface PoolEntry {
  readonly url: string;
  readonly control: string;
}

/**
 * The servers one chaos server started for others over its control API: each a whole chaos
 * server of its own (own port, sessions, ledger, wire log, uptime), so nothing one scenario
 * did can reach the next. They stop with `DELETE` on their own control URL, or with the pool.
 *
 * @example
 * const pool = new ServerPool((options) => startMember(options));
 * const server = await pool.create({ dialect: 'amdahl' });
 * await pool.stopAll();
 */
export class ServerPool {
  readonly #members = new Set<ChaosServer>();
  readonly #start: (options: PoolServerOptions, leave: (server: ChaosServer) => Promise<void>) => Promise<ChaosServer>;
  #closed = false;

  constructor(start: (options: PoolServerOptions, leave: (server: ChaosServer) => Promise<void>) => Promise<ChaosServer>) {
    this.#start = start;
  }

  /** Starts a server with these options; {@link PoolFullError} when {@link MAX_POOL_SERVERS} run already. */
  async create(options: PoolServerOptions): Promise<ChaosServer> {
    if (this.#closed) throw new PoolFullError('the pool is stopping');
    if (this.#members.size >= MAX_POOL_SERVERS) {
      throw new PoolFullError(`the pool holds ${MAX_POOL_SERVERS} servers: stop one (DELETE its control URL) first`);
    }
    const server = await this.#start(options, (member) => this.remove(member));
    this.#members.add(server);
    return server;
  }

  /** Stops a member and forgets it. */
  async remove(server: ChaosServer): Promise<void> {
    if (!this.#members.delete(server)) return;
    await server.stop();
  }

  list(): PoolEntry[] {
    return [...this.#members].map(({ url, control }) => ({ url, control }));
  }

  async stopAll(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#members].map((server) => this.remove(server)));
  }
}
