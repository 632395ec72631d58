import type { SendPhase } from './blocked.ts';

/**
 * Facts about the request that every observation carries.
 *
 * @example
 * const facts: RequestFacts = { revision: '2025-11-25', sessionIdSent: true, httpMethod: 'POST', rpcMethod: 'tools/list' };
 * classify({ ...facts, kind: 'timeout' }) // { kind: 'outcome-unknown', reason: 'timeout' }
 */
export interface RequestFacts {
  /** The revision the connection negotiated; absent before `initialize` completes. */
  readonly revision?: string;
  /** Whether the request carried an `Mcp-Session-Id`. */
  readonly sessionIdSent: boolean;
  /** Read by the classifier: a DELETE's reply carries no message, so its content type is free. */
  readonly httpMethod?: 'POST' | 'GET' | 'DELETE';
  /** The JSON-RPC method, for the caller's records; decisions take it from the `Operation`. */
  readonly rpcMethod?: string;
}

/**
 * Something that happened to one request, as the classifier takes it.
 *
 * - `http`: a response arrived; `body` is its text or its parsed JSON (large bodies need not be given).
 * - `stream-ended`: an SSE response stream ended before the JSON-RPC response, after the last
 *   event id it carried (if any) and the server's last `retry` value (if any).
 * - `network`: no response. `before-send`: the connection was refused, nothing reached the
 *   server. `after-send`: the connection broke after the request went out. `blocked`: the
 *   runtime refused to send it (a permission it lacks, named by `needs`); a retry cannot help.
 * - `rpc-error`: a JSON-RPC error surfaced by a client library (the SDK's `McpError`).
 * - `timeout`: the caller's own deadline passed.
 *
 * @example
 * const refused: Observation = { kind: 'network', phase: 'before-send', revision: '2025-11-25', sessionIdSent: true };
 * classify(refused) // { kind: 'not-processed', reason: 'connection-refused' }
 */
export type Observation =
  | (RequestFacts & {
      readonly kind: 'http';
      readonly status: number;
      readonly retryAfter?: string | null;
      readonly contentType?: string | null;
      readonly body?: unknown;
    })
  | (RequestFacts & { readonly kind: 'stream-ended'; readonly lastEventId?: string; readonly retryMs?: number })
  | (RequestFacts & { readonly kind: 'network' } & SendPhase)
  | (RequestFacts & { readonly kind: 'rpc-error'; readonly code: number; readonly message: string; readonly data?: unknown })
  | (RequestFacts & { readonly kind: 'timeout' });
