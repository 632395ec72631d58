/** The engine's `fetch` port, watched by a test: what the engine sent, and when it has nothing left on the wire. */
export interface WatchedFetch {
  readonly fetch: typeof globalThis.fetch;
  /** The JSON-RPC method of each request the engine sent (the HTTP method for those without one), in order. */
  readonly sent: string[];
  /**
   * Resolves once the engine is quiet: every step it could take without the network or a timer
   * has run (one turn of the event loop), and every request it sent by then has been answered or
   * has failed; again, until nothing new went out. A test asserts "nothing happened" after it.
   */
  quiet(): Promise<void>;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Wraps `inner` (the global `fetch` by default) for `createResilientFetch({ fetch })`.
 *
 * @example
 * const wire = watchedFetch();
 * const resilient = createResilientFetch({ fetch: wire.fetch });
 * await wire.quiet();
 * expect(wire.sent.filter((m) => m === 'initialize')).toHaveLength(1);
 */
export function watchedFetch(inner: typeof globalThis.fetch = globalThis.fetch): WatchedFetch {
  const pending = new Set<Promise<unknown>>();
  const sent: string[] = [];
  const watched: typeof globalThis.fetch = (input, init) => {
    let method: string = init?.method ?? 'GET';
    try {
      const rpc = JSON.parse(String(init?.body)) as { method?: unknown };
      if (typeof rpc.method === 'string') method = rpc.method;
    } catch {
      // Not JSON-RPC: named by its HTTP method.
    }
    sent.push(method);
    const response = inner(input, init);
    const settled = response.then(() => {}, () => {});
    pending.add(settled);
    void settled.then(() => pending.delete(settled));
    return response;
  };
  return {
    fetch: watched,
    sent,
    async quiet() {
      await turn();
      while (pending.size > 0) {
        await Promise.all(pending);
        await turn();
      }
    },
  };
}
