import { ERROR_BODY_LIMIT } from './limits.ts';

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
