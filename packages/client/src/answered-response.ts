import type { RpcMessage } from './messages.ts';
import { HandedResponse } from './responses.ts';

/** UTF-8, for the bodies the engine writes (shared with the stream supervisor). */
export const encoder = new TextEncoder();

/**
 * A JSON answer the engine has read and parsed whole, handed on without a second parse: `json()`
 * gives the value already parsed (the SDK reads a JSON answer with `json()`); every other way of
 * reading it reads the text. Like any response, its body can be read once (`bodyUsed`).
 *
 * @example
 * return new AnsweredResponse(text, JSON.parse(text), answer, response);
 */
export class AnsweredResponse extends HandedResponse {
  #value: unknown;

  /** `value` is `text` parsed; `answer` is the message in it that answers the request; `headers`, if not `from`'s. */
  constructor(text: string, value: unknown, readonly answer: RpcMessage, from: Response, headers?: Headers) {
    super(text, from, from.status, headers);
    this.#value = value;
  }

  override json(): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- as Response declares it
    // Read as reading it would (a body used or locked refuses, as any response's does), and given away: its reader may change it.
    if (this.bodyUsed || this.body!.locked) return super.json();
    void this.body!.cancel();
    const value = this.#value;
    this.#value = undefined;
    return Promise.resolve(value);
  }
}
