import type { RetryAfter } from './retry-after.ts';

/**
 * What a failure (or success) is. Each kind says whether the server processed the request:
 * `session-gone` (per its dialect), `rate-limited`, `unavailable` (a 503 the server vouched for)
 * and `not-processed` were not processed; `server-error` (a bare 503 too), `broken-stream` and
 * `outcome-unknown` may have been.
 *
 * @example
 * const verdict: Verdict = classify({ kind: 'http', status: 429, retryAfter: '2', revision: '2025-11-25', sessionIdSent: true });
 * // { kind: 'rate-limited', retryAfter: { kind: 'delay', ms: 2000 } }
 */
export type Verdict =
  | { readonly kind: 'success' }
  | {
      readonly kind: 'session-gone';
      readonly dialect: string;
      readonly outcome: 'not-processed' | 'unknown';
      readonly serverUptimeSeconds?: number;
    }
  | { readonly kind: 'rate-limited'; readonly retryAfter?: RetryAfter }
  /** A 503 with the server's own word that it did not process the request: a `Retry-After`, or a JSON-RPC error body. */
  | { readonly kind: 'unavailable'; readonly retryAfter?: RetryAfter }
  /**
   * A 5xx other than a vouched-for 503 (a gateway's bare 503 included): it may have run.
   * `retryable: false` for 501 and 505, which a retry cannot change.
   */
  | { readonly kind: 'server-error'; readonly status: number; readonly retryable: boolean; readonly retryAfter?: RetryAfter }
  /** A final error: passed to the caller untouched, never retried. */
  | { readonly kind: 'client-error'; readonly status?: number; readonly code?: number }
  /** The response stream broke; `resumable` when GET + `Last-Event-ID` may continue it. */
  | { readonly kind: 'broken-stream'; readonly resumable: boolean; readonly lastEventId?: string; readonly retryMs?: number }
  | { readonly kind: 'outcome-unknown'; readonly reason: 'connection-broken' | 'timeout' }
  | { readonly kind: 'not-processed'; readonly reason: 'connection-refused' }
  /** Not sent, and a retry cannot help: the runtime lacks a permission (`needs`). Final. */
  | { readonly kind: 'blocked'; readonly needs: string }
  /** 2026-07-28: a 404 with `-32601`. Final; never a session loss. */
  | { readonly kind: 'method-not-found' }
  /** 2026-07-28: 400 with `-32022`; `supported` lists the revisions the server offers. */
  | { readonly kind: 'version-unsupported'; readonly supported: readonly string[] }
  /** A 2xx whose body is neither JSON nor SSE (a proxy's HTML page, say). */
  | { readonly kind: 'malformed'; readonly contentType: string };

/** The `kind` of a {@link Verdict}. */
export type VerdictKind = Verdict['kind'];
