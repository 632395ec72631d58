// The few workerd types the two Workers use, declared here: this package type-checks with Node's
// and the DOM's types, not @cloudflare/workers-types (which would clash with both).

/** A KV namespace, as much of it as the admin routes use. */
export interface KvNamespace {
  get(key: string, options: { type: 'json' }): Promise<unknown>;
  delete(key: string): Promise<void>;
  list(options: { prefix: string; cursor?: string }): Promise<{ keys: { name: string }[]; list_complete: boolean; cursor?: string }>;
}

/** The handler's `ctx`. */
export interface WorkerContext {
  waitUntil(promise: Promise<unknown>): void;
  props?: unknown;
}

/** A service binding or a Durable Object stub: something with a `fetch`. */
export interface Fetcher {
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
}

/** A Durable Object namespace, as much of it as the client Worker uses. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: unknown): Fetcher;
}

/** A Durable Object's state, as much of it as `durableClient` asks for. */
export interface DurableObjectStateLike {
  readonly storage: {
    get(key: string): Promise<unknown>;
    put(key: string, value: unknown): Promise<void>;
    delete(key: string): Promise<boolean>;
  };
  waitUntil(promise: Promise<unknown>): void;
}
