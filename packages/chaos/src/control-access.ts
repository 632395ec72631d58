import { ChaosInputError } from './faults.ts';

const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/;

/** Who may drive a control API: the origins given CORS (`--control-origin`), and whether it is bound to loopback. */
export interface ControlAccessPolicy {
  readonly origins: ReadonlySet<string>;
  readonly loopbackBound: boolean;
}

/** Whether a host name (as in a URL or a `Host` header) is a loopback name. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_HOST.test(host);
}

/**
 * Reads one `--control-origin`: an origin exactly (`http://127.0.0.1:5173`: scheme, host,
 * port), never `*`, `null` or a URL with a path. Throws {@link ChaosInputError}.
 *
 * @example
 * parseControlOrigin('http://127.0.0.1:5173'); // 'http://127.0.0.1:5173'
 */
export function parseControlOrigin(text: string): string {
  let origin: string;
  try {
    origin = new URL(text).origin;
  } catch {
    throw new ChaosInputError(`control origin ${JSON.stringify(text)} is not an origin like http://127.0.0.1:5173`);
  }
  if (origin === 'null' || origin !== text.replace(/\/$/, '').toLowerCase()) {
    throw new ChaosInputError(`control origin ${JSON.stringify(text)} must be an origin exactly (scheme://host[:port], no path), like http://127.0.0.1:5173`);
  }
  return origin;
}

/**
 * Whether a request may reach the control API. A request that names no origin (a program,
 * not a page) may; one that does may only if its origin was given with `--control-origin`.
 * On loopback, a `Host` that is not a loopback name is refused whatever the origin (DNS rebinding).
 *
 * @example
 * controlAllowed({ origin: 'https://evil.example', host: '127.0.0.1:4000' }, { origins: new Set(), loopbackBound: true }); // false
 */
export function controlAllowed(headers: { readonly origin?: string | undefined; readonly host?: string | undefined }, policy: ControlAccessPolicy): boolean {
  if (headers.origin !== undefined && !policy.origins.has(headers.origin)) return false;
  return !policy.loopbackBound || isLoopbackHost(headers.host ?? '');
}

/**
 * Whether a request may reach the live view (`{control}/`, its scripts, `{control}/live`): as the
 * control API, and also the page the server serves itself, from its own origin (`http://` + the
 * request's `Host`), when it is bound to loopback and that `Host` is a loopback name.
 *
 * @example
 * liveAllowed({ origin: 'http://127.0.0.1:4000', host: '127.0.0.1:4000' }, { origins: new Set(), loopbackBound: true }); // true
 */
export function liveAllowed(headers: { readonly origin?: string | undefined; readonly host?: string | undefined }, policy: ControlAccessPolicy): boolean {
  if (controlAllowed(headers, policy)) return true;
  const host = headers.host ?? '';
  return policy.loopbackBound && isLoopbackHost(host) && headers.origin === `http://${host.toLowerCase()}`;
}

/**
 * The CORS headers of a control response to an allowed origin (none without an origin): that
 * origin exactly, never `*`, and the methods and header the control API takes.
 */
export function controlCorsHeaders(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return {
    'access-control-allow-origin': origin,
    vary: 'origin',
    'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
    'access-control-allow-headers': 'content-type',
    'access-control-max-age': '600',
  };
}
