/** Where the page server relays the page's chaos control requests (same origin as the page). */
export const RELAY_PATH = '/_chaos-relay';

/** A control request, as the page hands it to the relay. */
export interface RelayedRequest {
  readonly url: string;
  readonly method: string;
  readonly body?: string;
}

/** The control API of an mcp-chaos process or of a server of its pool: loopback, under `/_chaos`. */
const CONTROL_URL = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\/_chaos(\/|$)/;

/**
 * The `fetch` the page gives `chaosPool`: each control request goes to the page's own server
 * ({@link RELAY_PATH}), which asks mcp-chaos as a program does (no `Origin`), so that a chaos
 * process started by anyone serves the page without `--control-origin`.
 *
 * @example
 * chaosPool(control, { fetch: relayedFetch });
 */
export const relayedFetch: typeof fetch = (input, init) => {
  const request: RelayedRequest = {
    url: String(input), method: init?.method ?? 'GET', ...(typeof init?.body === 'string' ? { body: init.body } : {}),
  };
  return fetch(RELAY_PATH, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
};

/**
 * Carries out a relayed control request from Node. Only a loopback control API is reached: the
 * page cannot use the relay to fetch anything else.
 *
 * @example
 * const { status, text } = await relayChaosControl({ url: `${control}/state`, method: 'GET' });
 */
export async function relayChaosControl(request: RelayedRequest): Promise<{ readonly status: number; readonly text: string }> {
  const { url, method, body } = request;
  if (!CONTROL_URL.test(url)) return { status: 403, text: JSON.stringify({ error: `not a loopback chaos control URL: ${url}` }) };
  try {
    const response = await fetch(url, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body }) });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    return { status: 502, text: JSON.stringify({ error: `unreachable: ${(error as Error).message}` }) };
  }
}
