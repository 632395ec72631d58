/**
 * A response the engine hands on in place of one it read (`from`): the same status (unless
 * given), status text and headers (unless given), and the same `url` and `redirected` (where the
 * answer came from, after the redirects `fetch` followed), without a copy of anything: `headers`
 * is the object `from` has.
 *
 * @example
 * return new HandedResponse(text, response); // response.url, as the SDK would have seen it
 */
export class HandedResponse extends Response {
  readonly #from: Response;
  readonly #headers: Headers;

  constructor(body: BodyInit | null, from: Response, status = from.status, headers = from.headers) {
    super(body, { status, statusText: status === from.status ? from.statusText : '' });
    this.#from = from;
    this.#headers = headers;
  }

  static {
    // `headers`, `url` and `redirected` are accessors of Response: answered from the response read.
    Object.defineProperties(HandedResponse.prototype, {
      headers: { configurable: true, get(this: HandedResponse) { return this.#headers; } },
      url: { configurable: true, get(this: HandedResponse) { return this.#from.url; } },
      redirected: { configurable: true, get(this: HandedResponse) { return this.#from.redirected; } },
    });
  }

  /** A `Blob` of the type the headers say (the body's own type is that of its source: text, or none). */
  override blob(): Promise<Blob> {
    return super.blob().then((blob) => new Blob([blob], { type: this.headers.get('content-type') ?? '' }));
  }

  override clone(): Response {
    return new HandedResponse(super.clone().body, this); // its status, headers, url: this one's
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
