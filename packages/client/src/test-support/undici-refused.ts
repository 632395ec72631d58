/**
 * The `notSent` port as Node's adapter fills it (`refusedBeforeSending` of `@mcp-resilience/node`,
 * which depends on this package): undici's refused connection, `TypeError: fetch failed` whose
 * `cause.code` is `ECONNREFUSED`.
 *
 * @example
 * createResilientFetch({ notSent: undiciRefused });
 */
export const undiciRefused = (error: unknown): boolean => (error as { cause?: { code?: unknown } } | undefined)?.cause?.code === 'ECONNREFUSED';
