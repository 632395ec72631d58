import type { ErrorInfo } from '@mcp-resilience/core';

/**
 * `REINITIALIZE_FAILED`, saying why (`details.reason`): `no-initialize`, `refused` (with the
 * status), `no-result`, or `failed`; `words` say it in the message.
 *
 * @example
 * throw new ResilienceError(cannotOpen('refused', 'HTTP 403', { status: 403 })); // "A new session could not be opened (HTTP 403)"
 */
export function cannotOpen(reason: string, words: string, details: Record<string, unknown> = {}): ErrorInfo {
  return { code: 'REINITIALIZE_FAILED', message: `A new session could not be opened (${words})`, details: { reason, ...details } };
}
