/** What a response is handed on from: the response read, or the parts it takes of one. */
export type ResponseParts = Pick<Response, 'status' | 'statusText' | 'headers' | 'url' | 'redirected'>;

/**
 * A response the engine hands on in place of one it read (`from`): the same status (unless
 * given), status text and headers, and the same `url` and `redirected` (where the answer came
 * from, after the redirects `fetch` followed), without a copy of anything: `headers` is the
 * object `from` has.
 *
 * @example
 * return new HandedResponse(text, response); // response.url, as the SDK would have seen it
 */
export class HandedResponse extends Response {
  readonly #from: ResponseParts;

  constructor(body: BodyInit | null, from: ResponseParts, status = from.status) {
    super(body, { status, statusText: status === from.status ? from.statusText : '' });
    this.#from = from;
  }

  static {
    // `headers`, `url` and `redirected` are accessors of Response: answered from the response read.
    Object.defineProperties(HandedResponse.prototype, Object.fromEntries(['headers', 'url', 'redirected'].map((name) => [name, {
      configurable: true, get(this: HandedResponse) { return this.#from[name as 'url']; },
    }])));
  }

  override clone(): Response {
    return new HandedResponse(super.clone().body, this.#from, this.status);
  }
}

/**
 * Drops a response's body unread (nobody will read it); never rejects.
 *
 * @example
 * await discard(response);
 */
export function discard(response: Response | undefined): Promise<void> | undefined {
  return response?.body?.cancel().catch(() => {});
}
