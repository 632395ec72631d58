import type { RpcMessage } from './messages.ts';

/**
 * The same request under another JSON-RPC id: a re-issued request must not reuse an id whose
 * first copy may still be running.
 *
 * @example
 * withRequestId('{"jsonrpc":"2.0","id":4,"method":"tools/list"}', '4~r1') // …"id":"4~r1"…
 */
export function withRequestId(text: string, id: string | number): string {
  return JSON.stringify({ ...(JSON.parse(text) as RpcMessage), id });
}
