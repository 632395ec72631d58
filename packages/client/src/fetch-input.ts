import type { PostBody, RpcMessage } from './messages.ts';

/** What a `Request` input gives when `init` does not (the rest of a `Request` is the platform's default either way). */
const FROM_REQUEST = ['method', 'headers', 'signal', 'redirect', 'credentials', 'cache', 'mode', 'keepalive'] as const;

/**
 * The request a `fetch(input, init)` call with a `Request` input sends, as the platform's `fetch`
 * reads it: `init`, and what `init` does not give taken from the input (its method, headers, body
 * as text, signal, …). The input itself is left unread, to be sent as it is.
 *
 * @example
 * const init = await requestInit(new Request(url, { method: 'POST', body }), {}); // init.method === 'POST'
 */
export async function requestInit(input: Request, init: RequestInit): Promise<RequestInit> {
  const taken: Record<string, unknown> = {};
  for (const key of FROM_REQUEST) if (init[key] === undefined) taken[key] = input[key];
  if (init.body === undefined && input.body !== null) taken.body = await input.clone().text();
  return { ...init, ...taken };
}

/** Whether a POSTed body is JSON-RPC 2.0 (a message or a batch of them): anything else is not MCP. */
export function isJsonRpc(body: PostBody): boolean {
  if (body.kind === 'other') return false;
  return (body.batch ?? [body.message]).some((m) => (m as RpcMessage | null | undefined)?.jsonrpc === '2.0');
}
