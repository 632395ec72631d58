/** The most of an error response the engine reads: enough for any JSON-RPC error. */
export const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * Reads a response body as text, up to `limit` bytes or until `enough` (told each piece of text
 * as it arrives) says so; the rest is cancelled, not read. A body that breaks while being read
 * yields what arrived. Never throws.
 *
 * @example
 * const text = await readBounded(response); // at most 64 KiB
 */
export async function readBounded(response: Response, limit = ERROR_BODY_LIMIT, enough?: (text: string) => boolean): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      const piece = decoder.decode(value, { stream: true });
      text += piece;
      if (enough?.(piece)) break;
    }
  } catch {
    // A body that broke mid-way: what arrived is what there is.
  }
  reader.cancel().catch(() => {});
  return text.slice(0, limit);
}

/**
 * Reads a whole body; `complete` is false when it broke before its end (the connection was
 * cut), with what arrived until then.
 *
 * @example
 * const { bytes, complete } = await readWhole(response);
 */
export async function readWhole(response: Response): Promise<{ readonly bytes: Uint8Array<ArrayBuffer>; readonly complete: boolean }> {
  const chunks: Uint8Array[] = [];
  let complete = true;
  if (response.body) {
    const reader = response.body.getReader();
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    } catch {
      complete = false;
    }
  }
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  chunks.reduce((at, c) => (bytes.set(c, at), at + c.byteLength), 0);
  return { bytes, complete };
}
