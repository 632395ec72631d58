import type { ResilientFetchOptions } from './options.ts';
import { createResilientFetch, type ResilientFetch } from './resilient-fetch.ts';

/**
 * A fetch as the SDK 2.x (`@modelcontextprotocol/client`) passes it between middleware.
 *
 * @example
 * const plain: FetchLike = (url, init) => fetch(url, init);
 */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * The engine as an SDK 2.x `Middleware` (`(next) => fetch`): every request the engine sends
 * (the caller's, a re-issue, a re-initialization, a DELETE) goes through `next`, the middleware
 * after it. The fetch it returns is a {@link ResilientFetch}: `close()` lets its engine go.
 *
 * @example
 * const fetch = applyMiddlewares(withOAuth(provider, url), resilienceMiddleware())(globalThis.fetch);
 */
export type ResilienceMiddleware = (next: FetchLike) => ResilientFetch;

/**
 * The middleware form of an engine factory (an adapter's `createResilientFetch`): given options,
 * a middleware whose engine is built with them, sending through `next` instead of `options.fetch`.
 *
 * @example
 * export const resilienceMiddleware: (options?: MyOptions) => ResilienceMiddleware = middlewareOf(createResilientFetch);
 */
export function middlewareOf<O extends { readonly fetch?: typeof fetch }>(create: (options: O) => ResilientFetch): (options?: O) => ResilienceMiddleware {
  // `next` takes a string or a URL: what the caller before it gives, and what the engine's own requests carry.
  return (options = {} as O) => (next) => create({ ...options, fetch: next as typeof fetch });
}

/**
 * The engine as an SDK 2.x `Middleware`, to compose with the SDK's own (`withOAuth`,
 * `withLogging`, `applyMiddlewares`). `applyMiddlewares` wraps in the order given, the last
 * outermost: list the engine after the middleware its requests should go through. After
 * `withOAuth`, each re-initialization and re-issue goes out with a fresh token; after
 * `withLogging`, the log shows every request the engine sent (a re-initialization too).
 *
 * @example
 * import { applyMiddlewares, Client, StreamableHTTPClientTransport, withLogging } from '@modelcontextprotocol/client';
 * const fetch = applyMiddlewares(withLogging(), resilienceMiddleware({ log: true }))(globalThis.fetch);
 * await new Client({ name: 'app', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(new URL(url), { fetch }));
 */
export const resilienceMiddleware: (options?: ResilientFetchOptions) => ResilienceMiddleware = middlewareOf(createResilientFetch);
