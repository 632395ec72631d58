import type { PostBody, RpcMessage } from './messages.ts';

/** What a `Request` input gives when `init` does not (the rest of a `Request` is the platform's default either way). */
const FROM_REQUEST = ['method', 'headers', 'signal', 'redirect', 'credentials', 'cache', 'mode', 'keepalive'] as const;

/**
 * The request a `fetch(input, init)` call sends, as the platform's `fetch` reads it: `init`, and
 * what `init` does not give taken from a `Request` input (its method, headers, body as text,
 * signal, …). The input itself is left unread, to be sent as it is.
 *
 * @example
 * const init = await requestInit(new Request(url, { method: 'POST', body }), {}); // init.method === 'POST'
 */
export async function requestInit(input: RequestInfo | URL, init: RequestInit): Promise<RequestInit> {
  // `Request` is there wherever the engine runs (it needs `Response` and `Headers` as much).
  if (!(input instanceof Request)) return init;
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

/**
 * The response handed on, saying where it came from as the platform's would: the `url` and
 * `redirected` of the answer it was made of (a response the engine built has `""` and `false`).
 *
 * @example
 * return fromUpstream(await runner.run(), runner.upstream);
 */
export function fromUpstream(response: Response, upstream: { readonly url: string; readonly redirected: boolean } | undefined): Response {
  if (upstream) Object.defineProperties(response, { url: { value: upstream.url }, redirected: { value: upstream.redirected } });
  return response;
}
