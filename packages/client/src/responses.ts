/**
 * A response the engine hands on in place of one it read (`from`): the same status (unless
 * given), status text and headers, and the same `url` and `redirected` (where the answer came
 * from, after the redirects `fetch` followed), without a copy of anything.
 *
 * @example
 * return new HandedResponse(text, response); // response.url, as the SDK would have seen it
 */
export class HandedResponse extends Response {
  readonly #from: Response;

  constructor(body: BodyInit | null, from: Response, status = from.status) {
    super(body, { status, statusText: status === from.status ? from.statusText : '', headers: from.headers });
    this.#from = from;
  }

  static {
    // `url` and `redirected` are accessors of Response: answered from the response read.
    Object.defineProperties(HandedResponse.prototype, {
      url: { configurable: true, get(this: HandedResponse) { return this.#from.url; } },
      redirected: { configurable: true, get(this: HandedResponse) { return this.#from.redirected; } },
    });
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
