/** Where a request's `Mcp-Session-Id` stood when it arrived. */
export type SessionStanding = 'none' | 'live' | 'dead' | 'unknown';

/** One exchange the MCP server saw. */
export interface WireEntry {
  readonly http: string;
  /** The JSON-RPC method (or `response` for a client's answer), undefined for a body-less request. */
  readonly rpc: string | undefined;
  readonly session: SessionStanding;
  /** The bearer token it carried (`at-3`), or `-`. */
  readonly token: string;
  readonly status: number;
}

/**
 * Renders wire entries as one line each, for assertions and the README.
 *
 * @example
 * renderWire([{ http: 'POST', rpc: 'tools/call', session: 'dead', token: 'at-1', status: 401 }]);
 * // ['POST tools/call session=dead token=at-1 → 401']
 */
export function renderWire(entries: readonly WireEntry[]): string[] {
  return entries.map((e) => `${e.http} ${e.rpc ?? '-'} session=${e.session} token=${e.token} → ${e.status}`);
}

/**
 * The bearer token an `Authorization` header carries, or `-`.
 *
 * @example
 * bearerOf('Bearer at-3'); // 'at-3'
 * bearerOf(undefined);     // '-'
 */
export function bearerOf(header: string | undefined): string {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match?.[1] ?? '-';
}

/**
 * A wire log that can be waited on: `push` logs an entry into `entries`, `whenLogged` gives the
 * first logged entry that matches, at once or as soon as it is logged.
 *
 * @example
 * const log = watchedLog(wire);
 * log.push({ http: 'GET', rpc: undefined, session: 'live', token: 'at-1', status: 405 });
 * await log.whenLogged((e) => e.http === 'GET');
 */
export function watchedLog<E>(entries: E[]): { push(entry: E): void; whenLogged(matches: (entry: E) => boolean): Promise<E> } {
  const watchers = new Set<(entry: E) => void>();
  return {
    push(entry) {
      entries.push(entry);
      for (const watcher of watchers) watcher(entry);
    },
    whenLogged(matches) {
      const logged = entries.find(matches);
      if (logged !== undefined) return Promise.resolve(logged);
      return new Promise((resolve) => {
        const watcher = (entry: E) => {
          if (!matches(entry)) return;
          watchers.delete(watcher);
          resolve(entry);
        };
        watchers.add(watcher);
      });
    },
  };
}
