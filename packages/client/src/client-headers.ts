import { CredentialRefusal } from './credential-refusal.ts';

/**
 * Headers that belong to one request, not to its client: never carried over to the engine's own
 * requests or replays (a DPoP proof is good for one request only; a trace context is its request's).
 */
const PER_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  'accept', 'content-type', 'content-length', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'mcp-method', 'mcp-name',
  'dpop', 'traceparent', 'tracestate',
]);

/**
 * The headers of one client's latest request (its credentials among them), in memory only,
 * without those that belong to one request: what the engine's own requests for that client
 * carry, a refreshed token the next time. Never another client's. A refusal of them is a
 * {@link CredentialRefusal}.
 *
 * @example
 * const client = new ClientHeaders();
 * client.note(new Headers({ authorization: 'Bearer a', 'mcp-session-id': 's1' }));
 * client.over({ 'content-type': 'application/json' }); // authorization and content-type, no session id
 */
export class ClientHeaders extends CredentialRefusal {
  readonly #headers = new Map<string, string>();

  /** Keeps the client's headers of a request it sent, in place of those of its previous one. */
  note(headers: Headers): void {
    headers.forEach((value, name) => {
      if (!PER_REQUEST_HEADERS.has(name) && this.#headers.get(name) !== value) {
        this.#headers.set(name, value);
        this.version++;
      }
    });
    // One the client no longer sends (a token its SDK dropped) is not sent for it either.
    for (const name of this.#headers.keys()) {
      if (!headers.has(name)) {
        this.#headers.delete(name);
        this.version++;
      }
    }
  }

  /**
   * The client's headers over `base`: what one of the engine's own requests, or a request sent
   * again, carries for it; never a spent DPoP proof (the engine cannot sign one: the DPoP layer
   * goes inside it, as its `fetch`, and signs each request it sends).
   */
  over(base?: HeadersInit): Headers {
    const headers = new Headers(base);
    headers.delete('dpop');
    this.#headers.forEach((value, name) => headers.set(name, value));
    return headers;
  }
}
