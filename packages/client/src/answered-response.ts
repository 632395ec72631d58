import type { RpcMessage } from './messages.ts';
import { HandedResponse, type ResponseParts } from './responses.ts';

/** UTF-8, for the bodies the engine writes (shared with the stream supervisor). */
export const encoder = new TextEncoder();

/**
 * A JSON answer the engine has read and parsed whole, handed on without a second read: `json()`
 * gives the value already parsed and `text()` the text already read; a body stream is made only
 * when `body` is asked for. The SDK reads a JSON answer with `json()`, so nothing is parsed
 * twice. Like any response, its body can be read once (`bodyUsed`); `clone()` gives another.
 *
 * @example
 * return new AnsweredResponse(text, JSON.parse(text), answer, response);
 */
export class AnsweredResponse extends HandedResponse {
  readonly #text: string;
  #value: unknown;
  #stream: ReadableStream<Uint8Array> | undefined;
  #used = false;

  /** `value` is `text` parsed; `answer` is the message in it that answers the request. */
  constructor(text: string, value: unknown, readonly answer: RpcMessage, from: ResponseParts) {
    super(null, from);
    this.#text = text;
    this.#value = value;
  }

  static {
    // `body` and `bodyUsed` are accessors of Response: answered from what was read.
    Object.defineProperties(AnsweredResponse.prototype, {
      body: {
        configurable: true,
        get(this: AnsweredResponse) {
          // Nothing is read until the stream is: asking for `body` (to test it, say) leaves json() usable.
          this.#stream ??= new ReadableStream<Uint8Array>({
            pull: (controller) => {
              controller.enqueue(encoder.encode(this.#take()));
              controller.close();
            },
            cancel: () => void (this.#used = true),
          }, { highWaterMark: 0 });
          return this.#stream;
        },
      },
      bodyUsed: { configurable: true, get(this: AnsweredResponse) { return this.#used; } },
    });
  }

  #take(): string {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#text;
  }

  #read<T>(as: (text: string) => T): Promise<T> {
    return new Promise((resolve) => resolve(as(this.#take()))); // a throw rejects it
  }

  override json(): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- as Response declares it
    return this.#read(() => {
      const value = this.#value;
      this.#value = undefined; // given away: its reader may change it
      return value;
    });
  }

  override text(): Promise<string> {
    return this.#read((text) => text);
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    return this.#read((text) => encoder.encode(text).buffer as ArrayBuffer);
  }

  override bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#read((text) => encoder.encode(text) as Uint8Array<ArrayBuffer>);
  }

  override blob(): Promise<Blob> {
    return this.#read((text) => new Blob([text], { type: this.headers.get('content-type') ?? '' }));
  }

  override clone(): AnsweredResponse {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    return new AnsweredResponse(this.#text, JSON.parse(this.#text), this.answer, this);
  }
}
