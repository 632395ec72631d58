/** A control API's answer as the relay hands it to the page. */
export interface RelayedAnswer {
  readonly status: number;
  readonly text: string;
}

/** The control API of an mcp-chaos process or of a server of its pool: loopback, under `/_chaos`. */
const CONTROL_URL = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\/_chaos(\/|$)/;

/**
 * Carries a control request of the page to mcp-chaos from Node, as a program (no `Origin`), so
 * that a chaos process started by anyone serves the page without `--control-origin`. Only a
 * loopback control API is reached: the page cannot use it to fetch anything else.
 *
 * @example
 * await page.exposeFunction('chaosRelay', relayChaosControl);
 */
export async function relayChaosControl(url: string, method: string, body: string | undefined): Promise<RelayedAnswer> {
  if (!CONTROL_URL.test(url)) return { status: 403, text: JSON.stringify({ error: `not a loopback chaos control URL: ${url}` }) };
  try {
    const response = await fetch(url, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body }) });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    return { status: 502, text: JSON.stringify({ error: `unreachable: ${(error as Error).message}` }) };
  }
}
