import type { ErrorInfo } from './errors.ts';

/**
 * A runtime's word that it refused to send a request at all, and will refuse it again: a
 * permission the process was not given (Deno without `--allow-net` for the host). `needs`
 * names what is missing, in the runtime's words (`net access to "127.0.0.1:4000"`).
 *
 * @example
 * const answer: Blocked = { blocked: true, needs: 'net access to "127.0.0.1:4000"' };
 * sendPhase(answer) // { phase: 'blocked', needs: 'net access to "127.0.0.1:4000"' }
 */
export interface Blocked {
  readonly blocked: true;
  readonly needs: string;
}

/** The phase of a `network` observation, as a runtime's "was anything sent?" answers it. */
export type SendPhase =
  | { readonly phase: 'before-send' | 'after-send' }
  | { readonly phase: 'blocked'; readonly needs: string };

/**
 * The phase of a fetch that failed, from the runtime's answer: `true` nothing was sent (a
 * refused connection: a retry may help), `false` maybe sent, a {@link Blocked} nothing was
 * sent and a retry cannot help.
 *
 * @example
 * sendPhase({ blocked: true, needs: 'net access to "example.com:443"' })
 * // { phase: 'blocked', needs: 'net access to "example.com:443"' }
 */
export function sendPhase(answer: boolean | Blocked): SendPhase {
  if (typeof answer === 'object' && answer !== null && answer.blocked === true) return { phase: 'blocked', needs: answer.needs };
  return { phase: answer === true ? 'before-send' : 'after-send' };
}

/**
 * The error a blocked request ends with: `NOT_PERMITTED`, naming what is missing. Final: it
 * is never retried and never an unknown outcome, since nothing reached the server.
 */
export function blockedError(needs: string): ErrorInfo {
  return { code: 'NOT_PERMITTED', message: `The runtime did not permit the request to be sent: it needs ${needs}`, details: { needs } };
}
