import type { RpcMessage } from './messages.ts';
import { HandedResponse } from './responses.ts';

/** UTF-8, for the bodies the engine writes (shared with the stream supervisor). */
export const encoder = new TextEncoder();

const unusable = () => new TypeError('Body is unusable: Body has already been read');

/**
 * A JSON answer the engine has read and parsed whole, handed on as it came: no second parse, and
 * no stream of its own unless someone asks for `body` (a new `Response` with a body costs a
 * healthy call more than the rest of the engine's work). `json()` gives the value already parsed
 * (the SDK reads a JSON answer with `json()`); every other way of reading it reads the text. Like
 * any response, its body can be read once (`bodyUsed`), and cloned while unread.
 *
 * @example
 * return new AnsweredResponse(text, JSON.parse(text), answer, response);
 */
export class AnsweredResponse extends HandedResponse {
  readonly #text: string;
  #value: unknown;
  #used = false;
  #stream: ReadableStream<Uint8Array> | undefined;

  /** `value` is `text` parsed; `answer` is the message in it that answers the request; `headers`, if not `from`'s. */
  constructor(text: string, value: unknown, readonly answer: RpcMessage, from: Response, headers?: Headers) {
    super(null, from, from.status, headers);
    this.#text = text;
    this.#value = value;
  }

  static {
    // Accessors of Response: a stream made when first asked for, read (or cancelled) once.
    Object.defineProperties(AnsweredResponse.prototype, {
      body: { configurable: true, get(this: AnsweredResponse) { return (this.#stream ??= this.#streamed()); } },
      bodyUsed: { configurable: true, get(this: AnsweredResponse) { return this.#used; } },
    });
  }

  override json(): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- as Response declares it
    if (this.#stream || this.#used) return this.#read().then(JSON.parse);
    this.#used = true;
    const value = this.#value; // given away: its reader may change it
    this.#value = undefined;
    return Promise.resolve(value);
  }

  override text(): Promise<string> { return this.#read(); }
  override arrayBuffer(): Promise<ArrayBuffer> { return this.#read().then((text) => encoder.encode(text).buffer as ArrayBuffer); }
  override bytes(): Promise<Uint8Array<ArrayBuffer>> { return this.#read().then((text) => encoder.encode(text)); }
  override blob(): Promise<Blob> { return this.#read().then((text) => new Blob([text], { type: this.headers.get('content-type') ?? '' })); }
  override formData(): Promise<FormData> { return this.#read().then(() => Promise.reject(new TypeError('The body is JSON, not form data'))); }

  override clone(): Response {
    if (this.#used || this.#stream?.locked) throw unusable();
    return new AnsweredResponse(this.#text, JSON.parse(this.#text), this.answer, this, this.headers);
  }

  /** The text, once; through the stream once someone took it (it may have been read there). */
  #read(): Promise<string> {
    try {
      if (this.#stream) return new Response(this.#stream).text(); // refuses a stream read, locked or cancelled
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.#used) return Promise.reject(unusable());
    this.#used = true;
    return Promise.resolve(this.#text);
  }

  #streamed(): ReadableStream<Uint8Array> {
    const used = this.#used;
    const stream = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        this.#used = true;
        controller.enqueue(encoder.encode(this.#text));
        controller.close();
      },
      cancel: () => { this.#used = true; },
    }, { highWaterMark: 0 });
    if (used) void stream.cancel(); // read already: the stream of a body read, disturbed
    return stream;
  }
}
